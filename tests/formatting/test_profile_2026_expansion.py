"""Expanding a test of a today's file: prompts × list variables, `default_test` vars, prompt
ids and the second rendering pass (docs/formatting.md, "The AgentV 2026 profile", step 1)."""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evals_app.formatting.profile_2026 import format_tests_2026
from evals_app.formatting.profile_2026.expansion import safe_prompt_id
from evals_app.formatting.workspace_files import MappingFiles

EVAL_PATH = "evals/greet.eval.yaml"
FILES = MappingFiles(
    {
        "prompts/ask.txt": "Ask about {{ topic }}.",
        "evals/chat.json": '[{"role": "system", "content": "Be {{ tone }}."},'
        ' {"role": "user", "content": "{{ question }}"}]',
    }
)


def run(document: dict[str, Any], header: dict[str, Any], mode: str = "lm") -> list[Any]:
    return format_tests_2026(document, header, eval_path=EVAL_PATH, files=FILES, mode=mode)  # type: ignore[arg-type]


def sha12(value: Any, *, compact: bool = False) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":") if compact else None)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def test_whole_value_prompt_yields_the_variables_messages() -> None:
    header = {"prompts": ["{{ input }}"], "default_test": {"vars": {"product": "AgentV"}}}
    document = {
        "id": "explain",
        "vars": {"input": [{"role": "user", "content": "Explain what {{ vars.product }} does."}]},
        "assert": ["Says what it does"],
    }
    [test] = run(document, header)
    assert test.id == "explain"
    assert test.question == "Explain what AgentV does."


def test_second_pass_renders_templates_held_in_a_variable() -> None:
    header = {"prompts": ["{{ input }}"]}
    document = {"id": "t", "vars": {"input": "What is {{ 7 * 7 }}?"}}
    assert run(document, header)[0].question == "What is 49?"


def test_test_vars_sit_over_default_test_vars() -> None:
    header = {
        "prompts": ["{{ greeting }}, {{ name }}"],
        "default_test": {"vars": {"greeting": "Hello", "name": "world"}},
    }
    [test] = run({"id": "t", "vars": {"name": "Ada"}}, header)
    assert test.question == "Hello, Ada"
    assert test.variables == {"greeting": "Hello", "name": "Ada"}


def test_list_variables_expand_in_written_order_with_ids_rendered() -> None:
    header = {"prompts": ["Say hi in {{ lang }} to {{ who }}"]}
    document = {
        "id": "greet-{{ lang }}-{{ who }}",
        "vars": {"lang": ["en", "fr"], "who": ["a", "b"]},
    }
    tests = run(document, header)
    assert [test.id for test in tests] == ["greet-en-a", "greet-en-b", "greet-fr-a", "greet-fr-b"]
    # AgentV renders the prompt before it expands list variables: the prompt sees the lists.
    assert tests[0].question == "Say hi in en,fr to a,b"


def test_list_variables_reach_the_prompt_through_the_second_pass() -> None:
    header = {"prompts": ["{{ input }}"]}
    document = {
        "id": "greet-{{ lang }}",
        "vars": {"lang": ["en", "fr"], "input": "Hi in {{ lang }}"},
    }
    assert [(test.id, test.question) for test in run(document, header)] == [
        ("greet-en", "Hi in en"),
        ("greet-fr", "Hi in fr"),
    ]


def test_an_empty_list_variable_expands_to_no_test() -> None:
    assert run({"id": "t", "vars": {"lang": []}}, {"prompts": ["x"]}) == []


def test_a_list_of_mappings_is_not_expanded() -> None:
    document = {"id": "t", "vars": {"input": [{"role": "user", "content": "Hi"}]}}
    assert len(run(document, {"prompts": ["{{ input }}"]})) == 1


def test_one_prompt_keeps_the_id() -> None:
    [test] = run({"id": "t", "vars": {"x": "1"}}, {"prompts": ["Q {{ x }}"]})
    assert test.id == "t"
    assert test.prompt_id == f"prompt-{sha12('Q {{ x }}')}"


@pytest.mark.parametrize(
    ("entry", "prompt_id"),
    [
        ("Q {{ x }}", f"prompt-{sha12('Q {{ x }}')}"),
        ("Über {{ x }}", f"prompt-{sha12('Über {{ x }}')}"),
        (
            [{"role": "user", "content": "{{ x }}"}],
            f"chat-{sha12([{'role': 'user', 'content': '{{ x }}'}], compact=True)}",
        ),
        ("file://prompts/ask.txt", "prompts-ask.txt"),
        ({"id": "short", "raw": "R {{ x }}"}, "short"),
        ({"id": "my prompt / v2!", "raw": "R"}, "my-prompt-v2"),
        ({"label": "no id", "raw": "R {{ x }}"}, f"string-{sha12('R {{ x }}')}"),
        ({"prompt": "P {{ x }}"}, f"string-{sha12('P {{ x }}')}"),
        ({"file": "prompts/ask.txt"}, "prompts-ask.txt"),
    ],
)
def test_prompt_ids_in_expanded_test_ids(entry: Any, prompt_id: str) -> None:
    header = {"prompts": [entry, "other"]}
    tests = run({"id": "t", "vars": {"x": "1", "topic": "tea"}}, header)
    assert tests[0].id == f"t__prompt_{prompt_id}"
    assert tests[0].prompt_id == prompt_id
    assert tests[1].id == f"t__prompt_prompt-{sha12('other')}"


@pytest.mark.parametrize(
    ("raw", "safe"),
    [
        ("prompt-abc", "prompt-abc"),
        ("  a b  ", "a-b"),
        ("--x--", "x"),
        ("a/b\\c:d", "a-b-c-d"),
        ("keep_.-these", "keep_.-these"),
        ("x" * 60, "x" * 48),
    ],
)
def test_safe_prompt_id(raw: str, safe: str) -> None:
    assert safe_prompt_id(raw) == safe


def test_a_prompt_file_holding_a_chat_array_becomes_messages() -> None:
    header = {"prompts": [{"id": "chat", "file": "chat.json"}]}
    [test] = run({"id": "t", "vars": {"tone": "kind", "question": "Why?"}}, header)
    assert test.question == "@[System]:\nBe kind.\n\n@[User]:\nWhy?"
    assert test.system_message == "Be kind."


def test_a_missing_prompt_file_is_a_warning() -> None:
    header = {"prompts": ["file://prompts/missing.txt", "Q"]}
    [test] = run({"id": "t", "criteria": "Answers.", "vars": {}}, header)
    assert test.question == "Q"
    assert [warning.code for warning in test.warnings] == ["prompts"]


def test_without_vars_templates_stay_as_written() -> None:
    # AgentV renders nothing for a test with no variables at all.
    [test] = run({"id": "t"}, {"prompts": ["Say {{ x }}"]})
    assert test.question == "Say {{ x }}"


def test_a_test_input_becomes_the_input_variable_of_the_prompts() -> None:
    [test] = run({"id": "t", "input": "Hello"}, {"prompts": ["Q: {{ input }}"]})
    assert test.question == "Q: Hello"


@given(
    st.lists(st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=3), max_size=3),
    st.integers(1, 3),
)
def test_expansion_count_is_the_product_of_list_lengths_times_prompts(
    lists: list[list[str]], prompt_count: int
) -> None:
    variables: dict[str, Any] = {f"v{index}": values for index, values in enumerate(lists)}
    variables["fixed"] = {"not": "expanded"}
    header = {"prompts": [f"P{number} {{{{ fixed.not }}}}" for number in range(prompt_count)]}
    tests = run({"id": "t", "vars": variables}, header)
    assert len(tests) == prompt_count * math.prod(len(values) for values in lists)


@given(
    st.lists(st.text(alphabet="abc", min_size=1, max_size=3), min_size=1, max_size=4, unique=True)
)
def test_expanded_tests_keep_the_order_of_the_values(values: list[str]) -> None:
    document = {"id": "t-{{ v }}", "vars": {"v": values}}
    assert [test.id for test in run(document, {"prompts": ["{{ v }}"]})] == [
        f"t-{value}" for value in values
    ]

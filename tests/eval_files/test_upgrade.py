"""Upgrading an older eval file to today's format: each rule of docs/formats.md ("Upgrading to
today's format") as a table, and what must hold for any older case."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evals_app.eval_files.case_parts import split_case
from evals_app.eval_files.upgrade import is_older_file, upgrade_case, upgrade_eval_file
from tests.strategies import extra_values, keys, message, tricky_text

QUESTION = [{"role": "user", "content": "Where is my order?"}]
ANSWER = [{"role": "assistant", "content": "On its way."}]

# (rule, older case, today's case)
CASE_RULES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "input_messages becomes vars.input",
        {"id": "a", "input_messages": QUESTION},
        {"id": "a", "vars": {"input": QUESTION}},
    ),
    (
        "input as a string becomes vars.input as written",
        {"id": "a", "input": "Hello"},
        {"id": "a", "vars": {"input": "Hello"}},
    ),
    (
        "input as one message becomes vars.input as written",
        {"id": "a", "input": QUESTION[0]},
        {"id": "a", "vars": {"input": QUESTION[0]}},
    ),
    (
        "expected_messages becomes vars.expected_output",
        {"id": "a", "input_messages": QUESTION, "expected_messages": ANSWER},
        {"id": "a", "vars": {"input": QUESTION, "expected_output": ANSWER}},
    ),
    (
        "expected_output as text becomes vars.expected_output",
        {"id": "a", "input": "Hi", "expected_output": "Hello"},
        {"id": "a", "vars": {"input": "Hi", "expected_output": "Hello"}},
    ),
    (
        "existing vars take the conversation after their own keys",
        {"id": "a", "vars": {"lang": "en"}, "input": "Hi"},
        {"id": "a", "vars": {"lang": "en", "input": "Hi"}},
    ),
    (
        "outcome becomes criteria",
        {"id": "a", "outcome": "Polite."},
        {"id": "a", "criteria": "Polite."},
    ),
    (
        "expected_outcome becomes criteria",
        {"id": "a", "expected_outcome": "Polite."},
        {"id": "a", "criteria": "Polite."},
    ),
    ("criteria stays", {"id": "a", "criteria": "Polite."}, {"id": "a", "criteria": "Polite."}),
    ("test_id becomes id", {"test_id": "a", "input": "Hi"}, {"id": "a", "vars": {"input": "Hi"}}),
    (
        "an llm_judge with a prompt file becomes an llm-rubric with file://",
        {"id": "a", "evaluators": [{"name": "j", "type": "llm_judge", "prompt": "judges/g.md"}]},
        {
            "id": "a",
            "assert": [
                {
                    "name": "j",
                    "type": "llm-rubric",
                    "prompt": "file://judges/g.md",
                    "value": "Graded by the judge prompt judges/g.md.",
                }
            ],
        },
    ),
    (
        "an llm_judge with inline text becomes an llm-rubric with a value",
        {"id": "a", "evaluators": [{"type": "llm_judge", "prompt": "Is it polite?\n"}]},
        {"id": "a", "assert": [{"type": "llm-rubric", "value": "Is it polite?\n"}]},
    ),
    (
        "a code evaluator becomes a script with an argv command and its cwd",
        {"id": "a", "evaluators": [{"type": "code", "script": "uv run 'a b.py' -x", "cwd": "s"}]},
        {
            "id": "a",
            "assert": [{"type": "script", "command": ["uv", "run", "a b.py", "-x"], "cwd": "s"}],
        },
    ),
    (
        "a code evaluator's argv command stays a list",
        {"id": "a", "evaluators": [{"type": "code", "command": ["python", "c.py"]}]},
        {"id": "a", "assert": [{"type": "script", "command": ["python", "c.py"]}]},
    ),
    (
        "an evaluator of another type is kept as it is",
        {"id": "a", "evaluators": [{"type": "contains", "value": "order"}]},
        {"id": "a", "assert": [{"type": "contains", "value": "order"}]},
    ),
    (
        "a rubric line stays a string",
        {"id": "a", "rubrics": ["Is polite"]},
        {"id": "a", "assert": ["Is polite"]},
    ),
    (
        "a typed rubric item becomes an llm-rubric with its weight and required",
        {"id": "a", "rubrics": [{"outcome": "Short", "weight": 2, "required": False}]},
        {
            "id": "a",
            "assert": [{"type": "llm-rubric", "value": "Short", "weight": 2, "required": False}],
        },
    ),
    (
        "execution.target leaves the test (the file's providers select it)",
        {"id": "a", "execution": {"target": "azure"}},
        {"id": "a"},
    ),
    (
        "a case's target leaves the test, never a grader's options.provider",
        {"id": "a", "options": {"repeat": 2}, "target": "azure"},
        {"id": "a", "options": {"repeat": 2}},
    ),
    (
        "execution.evaluators become asserts, before the case's rubrics",
        {
            "id": "a",
            "execution": {"evaluators": [{"type": "llm_judge"}]},
            "rubrics": ["Is polite"],
        },
        {"id": "a", "assert": [{"type": "llm-rubric"}, "Is polite"]},
    ),
    (
        "any other key under execution goes to the test's top level",
        {"id": "a", "execution": {"max_retries": 2}, "tags": ["x"]},
        {"id": "a", "max_retries": 2, "tags": ["x"]},
    ),
    (
        "what today's AgentV reads under execution stays there",
        {"id": "a", "execution": {"threshold": 0.8, "target": "m", "skip_defaults": True}},
        {"id": "a", "execution": {"threshold": 0.8, "skip_defaults": True}},
    ),
    (
        "every other key is kept in its place",
        {"note": 1, "id": "a", "input": "Hi", "tags": ["x"], "metadata": {"k": "v"}},
        {"note": 1, "id": "a", "vars": {"input": "Hi"}, "tags": ["x"], "metadata": {"k": "v"}},
    ),
    (
        "a second spelling of a part goes under metadata",
        {"id": "a", "outcome": "One.", "criteria": "Two."},
        {"id": "a", "criteria": "One.", "metadata": {"criteria": "Two."}},
    ),
]


@pytest.mark.parametrize(
    ("older", "today"), [rule[1:] for rule in CASE_RULES], ids=[rule[0] for rule in CASE_RULES]
)
def test_each_case_rule(older: dict[str, Any], today: dict[str, Any]) -> None:
    upgraded = upgrade_case(older)

    assert upgraded.document == today
    assert list(upgraded.document) == list(today)


# (rule, older header, today's header); the file's list of cases is `evalcases` unless given.
HEADER_RULES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "the list of cases becomes tests, with prompts added before it",
        {"description": "d", "evalcases": [None]},
        {"description": "d", "prompts": ["{{ input }}"], "tests": [None]},
    ),
    (
        "$schema is dropped",
        {"$schema": "agentv-eval-v2", "evalcases": []},
        {"prompts": ["{{ input }}"], "tests": []},
    ),
    (
        "prompts a file has already are kept, not added again",
        {"prompts": ["Q: {{ input }}"], "evalcases": []},
        {"prompts": ["Q: {{ input }}"], "tests": []},
    ),
    (
        "target becomes providers",
        {"target": "default", "evalcases": []},
        {"providers": ["default"], "prompts": ["{{ input }}"], "tests": []},
    ),
    (
        "execution's evaluators become a top-level assert, its other keys top-level keys",
        {
            "execution": {"evaluators": [{"type": "llm_judge", "prompt": "Polite?\n"}], "x": 2},
            "evalcases": [],
        },
        {
            "assert": [{"type": "llm-rubric", "value": "Polite?\n"}],
            "x": 2,
            "prompts": ["{{ input }}"],
            "tests": [],
        },
    ),
    (
        "execution's target joins providers",
        {"providers": ["a"], "execution": {"target": "b"}, "evalcases": []},
        {"providers": ["a", "b"], "prompts": ["{{ input }}"], "tests": []},
    ),
    (
        "file-level evaluators become a top-level assert",
        {"evaluators": [{"type": "code", "script": "x.py"}], "evalcases": []},
        {
            "assert": [{"type": "script", "command": ["x.py"]}],
            "prompts": ["{{ input }}"],
            "tests": [],
        },
    ),
]


@pytest.mark.parametrize(
    ("older", "today"), [rule[1:] for rule in HEADER_RULES], ids=[rule[0] for rule in HEADER_RULES]
)
def test_each_header_rule(older: dict[str, Any], today: dict[str, Any]) -> None:
    upgraded = upgrade_eval_file(older, [], "evalcases")

    assert upgraded.header == today
    assert list(upgraded.header) == list(today)


@pytest.mark.parametrize("cases_key", ["evalcases", "eval_cases", "cases", "tests"])
def test_every_list_of_cases_becomes_tests(cases_key: str) -> None:
    upgraded = upgrade_eval_file({cases_key: [None]}, [{"id": "a", "input": "Hi"}], cases_key)

    assert upgraded.header == {"prompts": ["{{ input }}"], "tests": [None]}
    assert upgraded.documents == [{"id": "a", "vars": {"input": "Hi"}}]


def test_a_tests_file_whose_conversations_stay_gets_no_prompts() -> None:
    conversation = {"id": "a", "mode": "conversation", "turns": [{"input": "Hi"}]}

    upgraded = upgrade_eval_file({"$schema": "x", "tests": [None]}, [conversation], "tests")

    assert upgraded.header == {"tests": [None]}


def test_a_case_no_agentv_would_read_is_kept_with_a_note() -> None:
    broken = {"id": "a", "input": [{"role": "robot", "content": "Hi"}]}

    upgraded = upgrade_eval_file({"evalcases": [None]}, [broken], "evalcases")

    assert upgraded.documents == [broken]
    assert upgraded.all_notes() == [
        "a: not upgraded: unknown role 'robot' (expected system, user, assistant or tool)"
    ]


def test_a_file_of_cases_referred_to_gets_no_header() -> None:
    upgraded = upgrade_eval_file({}, [{"id": "a", "input": "Hi"}], None)

    assert upgraded.header == {}


def test_a_prompt_file_is_referred_to_by_the_path_it_is_given() -> None:
    evaluator = {"type": "llm_judge", "prompt": " judges/g.md "}
    upgraded = upgrade_case({"id": "a", "evaluators": [evaluator]}, {"judges/g.md": "j/g.v2026.md"})

    assert upgraded.document["assert"][0]["prompt"] == "file://j/g.v2026.md"


def test_a_prompt_file_not_in_the_workspace_stays_a_file_reference_with_a_note() -> None:
    upgraded = upgrade_case({"id": "a", "evaluators": [{"type": "llm_judge", "prompt": "g.md"}]})

    assert upgraded.document["assert"][0]["prompt"] == "file://g.md"
    assert upgraded.notes == ["judge prompt file g.md is not in the workspace"]


@pytest.mark.parametrize(
    ("execution", "note"),
    [
        (
            {"max_retries": 2},
            "`execution.max_retries` moved to the test's top level as `max_retries`",
        ),
        (
            {"tags": ["y"]},
            "`execution.tags` kept as `metadata.execution.tags` (the test has `tags` already)",
        ),
    ],
)
def test_keys_under_execution_are_kept_with_a_note(execution: dict[str, Any], note: str) -> None:
    upgraded = upgrade_case({"id": "a", "tags": ["x"], "execution": execution})

    assert upgraded.notes == [note]
    assert "execution" not in upgraded.document


def test_file_notes_name_each_case() -> None:
    upgraded = upgrade_eval_file(
        {"execution": {"workers": 2}, "evalcases": [None]},
        [{"id": "a", "execution": {"max_retries": 1}}],
        "evalcases",
    )

    assert upgraded.all_notes() == [
        "`execution.workers` moved to the file's top level as `workers`",
        "a: `execution.max_retries` moved to the test's top level as `max_retries`",
    ]


@pytest.mark.parametrize(
    ("header", "cases_key", "older"),
    [
        ({"evalcases": []}, "evalcases", True),
        ({"cases": []}, "cases", True),
        ({"tests": []}, "tests", True),  # 2026-02: no prompts yet
        ({"prompts": ["{{ input }}"], "target": "x", "tests": []}, "tests", True),
        ({"prompts": ["{{ input }}"], "tests": []}, "tests", False),
        ({}, "", False),  # a JSONL file of today's cases
    ],
)
def test_which_files_are_older(header: dict[str, Any], cases_key: str, older: bool) -> None:
    assert is_older_file(header, cases_key) is older


def test_upgrading_today_s_file_changes_nothing() -> None:
    header = {"prompts": ["{{ input }}"], "tests": [None]}
    case = {"id": "a", "criteria": "c", "vars": {"input": QUESTION}, "assert": ["Is polite"]}

    upgraded = upgrade_eval_file(header, [case], "tests")

    assert (upgraded.header, upgraded.documents) == (header, [case])
    assert upgraded.changes == [] and upgraded.cases[0].changes == []


# Any older case: an id, an outcome under any of its names, a conversation and an expected
# answer in any shape under either name, grading of each older kind, and unknown keys.
conversation = st.one_of(
    st.lists(message, min_size=1, max_size=3),
    tricky_text,
    message,
    st.dictionaries(keys.map(lambda k: "c_" + k), tricky_text, min_size=1, max_size=2),
)
evaluator = st.one_of(
    st.fixed_dictionaries(
        {"type": st.just("llm_judge")}, optional={"prompt": tricky_text, "name": tricky_text}
    ),
    st.fixed_dictionaries(
        {"type": st.just("code"), "script": st.sampled_from(["a.py", "uv run b.py -x"])},
        optional={"cwd": tricky_text},
    ),
)


@st.composite
def older_cases(draw: st.DrawFn) -> dict[str, Any]:
    case: dict[str, Any] = {draw(st.sampled_from(["id", "test_id"])): "case"}
    if draw(st.booleans()):
        case[draw(st.sampled_from(["outcome", "expected_outcome", "criteria"]))] = draw(tricky_text)
    case[draw(st.sampled_from(["input_messages", "input"]))] = draw(conversation)
    if draw(st.booleans()):
        case[draw(st.sampled_from(["expected_messages", "expected_output"]))] = draw(conversation)
    execution: dict[str, Any] = {}
    if draw(st.booleans()):
        execution["target"] = draw(tricky_text)
    if draw(st.booleans()):
        execution["evaluators"] = draw(st.lists(evaluator, max_size=2))
    if execution:
        case["execution"] = execution
    if draw(st.booleans()):
        case["rubrics"] = draw(st.lists(tricky_text, max_size=2))
    case.update(draw(st.dictionaries(keys.map(lambda k: "x_" + k), extra_values, max_size=3)))
    order = draw(st.permutations(list(case)))
    return {key: case[key] for key in order}


@given(older_cases())
def test_upgrading_keeps_the_unmapped_keys_and_the_conversation(older: dict[str, Any]) -> None:
    upgraded = upgrade_case(older).document

    unmapped = [key for key in older if key.startswith("x_")]
    assert [key for key in upgraded if key.startswith("x_")] == unmapped
    assert all(upgraded[key] == older[key] for key in unmapped)
    before, after = split_case(older), split_case(upgraded)
    assert after.input_messages == before.input_messages
    assert after.expected_messages == before.expected_messages
    assert after.outcome == before.outcome
    assert after.spelling.input_path == ("vars", "input")

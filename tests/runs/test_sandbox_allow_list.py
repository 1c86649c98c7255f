"""The allow-list itself, for each AgentV generation: which places of a suite start a program,
and which variables a text names (docs/security.md, "Runs")."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evals_app.services.runs.commands import commands_in, environment_names
from evals_app.services.runs.references import run_files

SCRIPT = {"type": "script", "command": ["sh", "-c", "id"]}

# (the AgentV generation that knows the spelling, document, the places named)
STARTS_A_PROGRAM: list[tuple[int, dict[str, Any], list[str]]] = [
    (5, {"default_test": {"assert": [SCRIPT]}}, ["s › default_test › assert #1: a `script`"]),
    (5, {"assert": [{"type": "javascript", "value": "output.length > 1"}]}, ["`javascript`"]),
    (5, {"assert": [{"type": "python", "value": "len(output) > 1"}]}, ["`python`"]),
    (5, {"assert": [{"type": "webhook", "url": "http://127.0.0.1/"}]}, ["`webhook`"]),
    (5, {"assert": [{"type": "equals", "value": "x", "transform": "t.js"}]}, ["transform"]),
    (5, {"default_test": {"options": {"transform": "output.trim()"}}}, ["options › transform"]),
    (5, {"extensions": [{"after_all": "x.js"}]}, ["s › extensions: starts a program"]),
    (
        5,
        {"tests": [{"assert": [{"type": "assert-set", "assert": [SCRIPT]}]}]},
        ["s › tests #1 › assert #1 › assert #1: a `script`"],
    ),
    (5, {"assert": [{"type": "code-grader"}]}, ["`code-grader`"]),  # removed in 5.x: unknown
    (4, {"assertions": [{"type": "code_judge", "script": "x"}]}, ["`code_judge`"]),
    (4, {"assert": [{"type": "javascript", "value": "1"}]}, ["`javascript`"]),  # unknown to 4.x
    (4, {"preprocessors": [{"type": "xlsx", "command": ["x"]}]}, ["s › preprocessors"]),
    (
        4,
        {"assertions": [{"type": "llm-grader", "prompt": {"command": ["node", "p.js"]}}]},
        ["prompt: a prompt written by a program"],
    ),
    (
        4,
        {"execution": {"targets": [{"name": "mock", "hooks": {"before_each": "x"}}]}},
        ["s › execution › targets: defines a provider"],
    ),
    (4, {"tests": [{"workspace": {"repos": [{"path": "r"}]}}]}, ["workspace › repos"]),
    (4, {"tests": [{"workspace": {"docker": {"image": "x"}}}]}, ["workspace › docker"]),
    # The suite-level grader of AgentV's own example
    # examples/features/code-grader-with-llm-calls/evals/contextual-precision.eval.yaml.
    (
        4,
        {
            "assertions": [
                {
                    "name": "contextual_precision",
                    "type": "code-grader",
                    "command": ["bun", "run", "../scripts/contextual-precision.ts"],
                    "target": {"max_calls": 10},
                }
            ],
            "execution": {"target": "llm"},
        },
        ["s › assertions #1: a `code-grader` grader starts a program"],
    ),
]


@pytest.mark.parametrize(("generation", "document", "places"), STARTS_A_PROGRAM)
def test_each_place_that_starts_a_program_is_named(
    generation: int, document: dict[str, Any], places: list[str]
) -> None:
    found = " | ".join(commands_in(document, "s"))
    for place in places:
        assert place in found


# Graders and data AgentV handles in its own process: nothing is named.
RUNS_NOTHING: list[tuple[int, dict[str, Any]]] = [
    (4, {"assertions": [{"type": "llm_grader", "prompt": "../judges/j.md"}, "Says four."]}),
    (4, {"assertions": [{"type": "composite", "aggregator": {"type": "weighted_average"}}]}),
    (5, {"assert": [{"type": "not-trajectory:tool-used", "value": "bash"}]}),
    (5, {"assert": [{"type": "llm-rubric", "value": ["Says four"]}]}),
    # A tool call's arguments are the test's data, whatever their keys.
    (
        4,
        {
            "input": [{"role": "assistant", "tool_calls": [{"arguments": {"command": "ls"}}]}],
            "expected_output": [{"tool_calls": [{"args": {"script": "x"}}]}],
            "metadata": {"hooks": "named in a note"},
            "execution": {"target": "mock"},
        },
    ),
]


@pytest.mark.parametrize(("generation", "document"), RUNS_NOTHING)
def test_graders_agentv_runs_itself_and_the_tests_data_name_nothing(
    generation: int, document: dict[str, Any]
) -> None:
    assert list(commands_in(document, "s")) == []


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("key: ${{ OPENAI_API_KEY }}", {"OPENAI_API_KEY"}),
        ("value: '{{ env.HOME }} and {{ env[\"PATH\"] }}'", {"HOME", "PATH"}),
        ("value: '{{ env | dump }}'", {"env"}),
        ("value: '{{ output }} {{ vars.env }}'", set()),
        ("value: '{{ output }}'", set()),
    ],
)
def test_the_variables_a_text_names(text: str, names: set[str]) -> None:
    assert environment_names(text) == names


def _refusal(header: dict[str, Any], files: dict[str, str]) -> str:
    return run_files("evals/s.yaml", "", header, [], files, allow_commands=False).refusal()


def test_a_prompt_function_file_starts_a_program() -> None:
    header = {"prompts": [{"function_file": "prompt.mjs"}]}
    assert "the suite › prompts #1 › function_file: starts a program" in _refusal(header, {})


def test_a_case_file_of_json_lines_is_checked_line_by_line() -> None:
    files = {"evals/cases.jsonl": '{"id": "a", "assertions": [{"type": "code-grader"}]}\n'}
    refusal = _refusal({"tests": "./cases.jsonl"}, files)
    assert "evals/cases.jsonl:1 › assertions #1: a `code-grader` grader starts a program" in (
        refusal
    )


def test_a_sheets_expected_column_of_code_starts_a_program() -> None:
    files = {"evals/cases.csv": "question,__expected\nHi,javascript: output.length > 2\n"}
    assert "evals/cases.csv › __expected" in _refusal({"tests": "file://cases.csv"}, files)


def test_a_grader_made_from_a_variable_is_refused() -> None:
    header = {"tests": [{"vars": {"g": {"type": "script"}}, "assert": ["{{ g }}"]}]}
    assert "a grader made from the variable in `{{ g }}`" in " ".join(commands_in(header, "s"))


@pytest.mark.parametrize(
    "reference", ["{{ attachment }}", "/etc/*", "../../*.md", "file:///etc/host*"]
)
def test_a_path_from_a_template_or_a_glob_outside_is_refused(reference: str) -> None:
    header = {"tests": [{"id": "t", "input_files": [reference]}]}
    assert f"`{reference}`" in _refusal(header, {})


ANY_YAML = st.recursive(
    st.none() | st.booleans() | st.integers() | st.sampled_from(["code-grader", "{{ g }}", "x"]),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(
            st.sampled_from(["assertions", "assert", "aggregator", "type", "prompt", "hooks", "v"]),
            children,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@given(ANY_YAML)
def test_checking_any_document_never_fails(document: Any) -> None:
    for place in commands_in(document, "s"):
        assert place.startswith("s")

"""A formatted test (the rows of `formatted.jsonl`, the API, the editor's preview) says where
today's AgentV refuses the whole file or skips the test, as its loader does
(docs/formatting.md, "The AgentV 2026 profile")."""

from __future__ import annotations

from typing import Any

import pytest

from evals_app.formatting.profile_2026 import format_tests_2026
from evals_app.formatting.workspace_files import MappingFiles

UPGRADE = "Upgrade to today's format."
HEADER = {"prompts": ["{{ input }}"]}
FILES = {"evals/judges/plain.md": "Grade the answer.", "evals/judges/ok.md": "Grade {{ output }}"}


def warnings(test: dict[str, Any], header: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    document = {"id": "t", "criteria": "Answers.", "vars": {"input": "Hi"}, **test}
    [result] = format_tests_2026(
        document,
        {**HEADER, **(header or {})},
        eval_path="evals/suite.yaml",
        files=MappingFiles(FILES),
    )
    return [(warning.code, warning.message) for warning in result.warnings]


def only(found: list[tuple[str, str]]) -> tuple[str, str]:
    [warning] = found
    return warning


# (rule, test, header, words of the warning, fixed by upgrading)
SKIPS: list[tuple[str, dict[str, Any], dict[str, Any], str, bool]] = [
    *(
        (
            f"a removed type: {kind}",
            {"assert": [{"type": kind, "value": "x"}]},
            {},
            f"an assert of type `{kind}` has been removed",
            kind in ("llm-grader", "llm_judge", "llm-judge", "g-eval"),
        )
        for kind in ("llm-grader", "llm_judge", "llm-judge", "g-eval", "rubrics")
    ),
    (
        "a tool-trajectory the upgrade converts",
        {"assert": [{"type": "tool-trajectory", "mode": "any_order", "minimums": {"a": 1}}]},
        {},
        "an assert of type `tool-trajectory` has been removed",
        True,
    ),
    (
        "a tool-trajectory with no equivalent today",
        {"assert": [{"type": "tool-trajectory", "mode": "subset", "expected": [{"tool": "a"}]}]},
        {},
        "an assert of type `tool-trajectory` has been removed",
        False,
    ),
    (
        "a removed type inside an assert-set",
        {"assert": [{"type": "assert-set", "assert": [{"type": "composite", "evaluators": []}]}]},
        {},
        "an assert of type `composite` has been removed (use `assert-set`)",
        True,
    ),
    (
        "a script with a target",
        {"assert": [{"type": "script", "command": ["c.py"], "target": {"max_calls": 1}}]},
        {},
        "a script assert's `target` has been removed",
        True,
    ),
    (
        "an llm-rubric with a target",
        {"assert": [{"type": "llm-rubric", "value": "x", "target": "judge"}]},
        {},
        "an llm-rubric's `target` has been removed",
        True,
    ),
    (
        "a script's script field",
        {"assert": [{"type": "script", "script": "c.py"}]},
        {},
        "a script assert's `script` has been removed",
        False,
    ),
    (
        "an llm-rubric's criteria field",
        {"assert": [{"type": "llm-rubric", "value": "x", "criteria": "x"}]},
        {},
        "an llm-rubric's `criteria` has been removed",
        False,
    ),
    (
        "a file's assert skips every test",
        {},
        {"assert": [{"type": "llm_judge"}]},
        "an assert of type `llm_judge` has been removed",
        True,
    ),
    (
        "a judge template with neither {{output}} nor {{expected_output}}",
        {"assert": [{"type": "llm-rubric", "value": "x", "prompt": "file://judges/plain.md"}]},
        {},
        "holds neither {{output}} nor {{expected_output}}",
        False,
    ),
    (
        "an llm-rubric whose only prompt is a file:// reference",
        {"assert": [{"type": "llm-rubric", "prompt": "file://judges/ok.md"}]},
        {},
        "AgentV skips this llm-rubric: its only prompt is a file:// reference",
        False,
    ),
    (
        "a test with nothing to grade it by",
        {"criteria": None},
        {},
        "it has no criteria, expected output, assert or turns",
        False,
    ),
]


@pytest.mark.parametrize(
    ("test", "header", "words", "upgrade"),
    [row[1:] for row in SKIPS],
    ids=[row[0] for row in SKIPS],
)
def test_each_skip_is_a_warning(
    test: dict[str, Any], header: dict[str, Any], words: str, upgrade: bool
) -> None:
    code, message = only(warnings(test, header))

    assert code == "agentv_skips_test"
    assert "AgentV skips this" in message and words in message
    assert message.endswith(UPGRADE) == upgrade


# (rule, test, header, words of the warning, fixed by upgrading)
REFUSALS: list[tuple[str, dict[str, Any], dict[str, Any], str, bool]] = [
    ("a test's input", {"input": "Hi"}, {}, "a test's `input` has been removed", True),
    (
        "a test's expected_output",
        {"expected_output": "Hello"},
        {},
        "a test's `expected_output` has been removed",
        True,
    ),
    (
        "a test's execution.target",
        {"execution": {"target": "mock"}},
        {},
        "a test's `execution.target` has been removed",
        True,
    ),
    (
        "a test's unknown execution key",
        {"execution": {"timeout": 3}},
        {},
        "a test's `execution.timeout` is not supported",
        False,
    ),
    ("a top-level target", {}, {"target": "mock"}, "top-level `target` has been removed", True),
    (
        "a top-level execution",
        {},
        {"execution": {"max_retries": 2}},
        "top-level `execution` is not part of eval YAML",
        True,
    ),
    ("a top-level input", {}, {"input": "Hi"}, "top-level `input` has been removed", False),
]


@pytest.mark.parametrize(
    ("test", "header", "words", "upgrade"),
    [row[1:] for row in REFUSALS],
    ids=[row[0] for row in REFUSALS],
)
def test_each_refusal_of_the_file_is_a_warning(
    test: dict[str, Any], header: dict[str, Any], words: str, upgrade: bool
) -> None:
    code, message = next(w for w in warnings(test, header) if w[0] == "agentv_refuses_file")

    assert "AgentV refuses this file: " in message and words in message
    assert message.endswith(UPGRADE) == upgrade


@pytest.mark.parametrize(
    "test",
    [
        {"assert": [{"type": "llm-rubric", "value": "Polite."}]},
        {"assert": [{"type": "llm-rubric", "value": "x", "prompt": "file://judges/ok.md"}]},
        {"assert": [{"type": "script", "command": ["c.py"], "provider": {"max_calls": 2}}]},
        {"assert": [{"type": "trajectory:tool-used", "value": {"name": "a", "min": 1}}]},
        {"assert": [{"type": "assert-set", "assert": [{"type": "contains", "value": "x"}]}]},
        {
            "criteria": None,
            "turns": [{"input": "Hi", "assert": ["Greets."]}],
            "mode": "conversation",
        },
        {"execution": {"skip_defaults": True, "threshold": 0.5}},
    ],
    ids=["value", "template and value", "provider", "trajectory", "assert-set", "turns", "exec"],
)
def test_what_today_s_agentv_loads_has_no_such_warning(test: dict[str, Any]) -> None:
    codes = [code for code, _ in warnings(test)]

    assert "agentv_skips_test" not in codes and "agentv_refuses_file" not in codes

"""Plain functions that build eval cases for the formatting tests."""

from __future__ import annotations

from typing import Any

from evals_app.eval_files.case_parts import case_input, split_case
from evals_app.formatting.case_input import CaseInput


def text(value: str) -> dict[str, str]:
    """A `type: text` block."""
    return {"type": "text", "value": value}


def file(value: str) -> dict[str, str]:
    """A `type: file` block."""
    return {"type": "file", "value": value}


def message(role: str, content: str | list[Any]) -> dict[str, Any]:
    """One message as it appears in the YAML."""
    return {"role": role, "content": content}


def make_case(
    *messages: dict[str, Any],
    expected: list[dict[str, Any]] | None = None,
    evaluators: list[dict[str, Any]] | None = None,
    outcome: str = "Answers correctly.",
    case_id: str = "case-1",
    file_evaluators: list[dict[str, Any]] | None = None,
) -> CaseInput:
    """What the engine reads of a case with the given input messages, spelled as the seeds'
    files spell it; `file_evaluators` are its file's."""
    data: dict[str, Any] = {"id": case_id, "outcome": outcome, "input_messages": list(messages)}
    if expected is not None:
        data["expected_messages"] = expected
    if evaluators is not None:
        data["execution"] = {"evaluators": evaluators}
    return case_input(split_case(data), tuple(file_evaluators or ()))

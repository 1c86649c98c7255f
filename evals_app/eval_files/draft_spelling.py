"""The draft spelling of AgentV's November 2025 design examples, which no AgentV release read:
`input: {messages}`, `expected: {outcome, messages}`, `execution.evaluator` (one) or
`execution.grader`. The upgrade respells such a case as the 2025 files spell it, then converts
it as it converts them (docs/formats.md, "Upgrading to today's format").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def respelled_draft(document: Mapping[Any, Any]) -> tuple[dict[Any, Any], list[str]]:
    """A copy of `document` with each part written in the draft spelling respelled as the 2025
    files have it, and what changed (`input.messages` → `input_messages`)."""
    changes: list[str] = []
    out: dict[Any, Any] = {}
    draft = _messages_only(document.get("input")) or _expected_parts(document.get("expected"))
    for key, value in document.items():
        if key == "input" and _messages_only(value):
            out["input_messages"] = value["messages"]
            changes.append("`input.messages` → `input_messages`")
        elif key == "expected" and _expected_parts(value):
            out.update(_expected(value, changes))
        elif key == "conversationId" and "conversation_id" not in document:
            out["conversation_id"] = value
            changes.append("`conversationId` → `conversation_id`")
        elif key == "execution" and isinstance(value, dict):
            out["execution"] = _execution(value, changes)
        elif key == "checkpoint" and draft and "metadata" not in document:
            # Which turn of the conversation the draft graded: no AgentV field, kept as data.
            out["metadata"] = {"checkpoint": value}
            changes.append("`checkpoint` → `metadata.checkpoint`")
        else:
            out[key] = value
    return out, changes


def _messages_only(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and list(value) == ["messages"]
        and isinstance(value["messages"], list)
    )


def _expected_parts(value: Any) -> bool:
    return isinstance(value, dict) and bool(value) and set(value) <= {"outcome", "messages"}


def _expected(value: dict[Any, Any], changes: list[str]) -> dict[Any, Any]:
    """`expected.outcome` as the case's `outcome` (a description with a rubric's aspects: the
    description, and the aspects as `rubrics`), `expected.messages` as `expected_messages`."""
    out: dict[Any, Any] = {}
    outcome = value.get("outcome")
    if isinstance(outcome, dict) and set(outcome) <= {"description", "rubric"}:
        rubric = outcome.get("rubric")
        aspects = rubric.get("aspects") if isinstance(rubric, dict) else None
        if "description" in outcome:
            out["outcome"] = outcome["description"]
            changes.append("`expected.outcome.description` → `outcome`")
        if isinstance(aspects, list):
            out["rubrics"] = aspects
            changes.append("`expected.outcome.rubric.aspects` → `rubrics`")
    elif "outcome" in value:
        out["outcome"] = outcome
        changes.append("`expected.outcome` → `outcome`")
    if "messages" in value:
        out["expected_messages"] = value["messages"]
        changes.append("`expected.messages` → `expected_messages`")
    return out


def _execution(value: dict[Any, Any], changes: list[str]) -> dict[Any, Any]:
    """`evaluator: {…}` as a list of one evaluator (its `template` is a judge's `prompt`), and
    `grader: NAME` as one evaluator of that type, where the case lists no evaluators."""
    if "evaluators" in value:
        return value
    out: dict[Any, Any] = {}
    for key, item in value.items():
        if key == "evaluator" and isinstance(item, dict):
            evaluator = {
                ("prompt" if name == "template" and "prompt" not in item else name): field
                for name, field in item.items()
            }
            out["evaluators"] = [evaluator]
            said = " (its `template` → `prompt`)" if "template" in item else ""
            changes.append(f"`execution.evaluator` → `execution.evaluators`{said}")
        elif key == "grader" and item == "llm_judge":
            # An LLM judge of the criteria (and rubrics) is how such a case is graded anyway.
            changes.append("`execution.grader: llm_judge` removed (its criteria are judged)")
        elif key == "grader" and isinstance(item, str):
            out["evaluators"] = [{"type": item}]
            changes.append(f"`execution.grader: {item}` → `execution.evaluators`")
        else:
            out[key] = item
    return out

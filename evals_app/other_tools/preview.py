"""What the import's preview shows before anything is written (docs/imports.md, "In the
browser"): a row per test, source row to AgentV test, and for each session its user turns."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .conversion import Conversion
from .messages import text_of
from .registry import SESSION_FORMATS
from .sessions import Session

SHOWN = 160  # characters of a text the preview shows
_VARIABLE = re.compile(r"{{\s*(?:vars\.)?([A-Za-z_][A-Za-z0-9_]*)\s*}}")


@dataclass(frozen=True)
class PreviewRow:
    """One source row and the AgentV test it becomes."""

    file: str
    where: str
    format: str
    test_id: str
    turns: list[str]
    expected: str
    asserts: list[str]
    warnings: list[str]


@dataclass(frozen=True)
class TurnChoice:
    """A user turn of a session: what the user said, what the session answered, the tools."""

    number: int
    said: str
    answer: str
    tools: list[str]


@dataclass(frozen=True)
class SessionTurns:
    """A session file's user turns and the ones chosen to test at."""

    path: str
    format: str
    turns: list[TurnChoice]
    chosen: list[int]


def preview_rows(conversion: Conversion) -> list[PreviewRow]:
    """A row per test, in order; a test with no `vars.input` (a promptfoo test, whose prompt
    is the suite's) shows its first prompt with its variables in place."""
    prompts = conversion.header.get("prompts") or []
    prompt = prompts[0] if prompts and isinstance(prompts[0], str) else None
    rows = []
    for result in conversion.files:
        for mapped in result.tests:
            test = mapped.test
            variables = test.get("vars") or {}
            rows.append(
                PreviewRow(
                    file=mapped.row.file,
                    where=mapped.row.where,
                    format=result.format,
                    test_id=str(test["id"]),
                    turns=_turns(variables.get("input"))
                    if "input" in variables or prompt is None
                    else [f"prompt: {_short(_filled(prompt, variables))}"],
                    expected=_short(_text(variables.get("expected_output"))),
                    asserts=[_assert_name(entry) for entry in test.get("assert") or []],
                    warnings=[
                        f"{w.field}: {w.message}" if w.field else w.message for w in mapped.warnings
                    ],
                )
            )
    return rows


def session_turns(conversion: Conversion) -> list[SessionTurns]:
    """Each session file's turns, for choosing the turn to test at."""
    found = []
    for result in conversion.files:
        if result.format not in SESSION_FORMATS or not result.turns:
            continue
        session: Session = result.turns[0].data
        choices = []
        for row in result.turns:
            number = int(row.context["turn"])
            said = session.messages[session.user_turns[number - 1]].get("content")
            tools = sorted(
                {
                    str(call.get("tool"))
                    for message in session.span(number)
                    for call in message.get("tool_calls") or []
                    if isinstance(call, dict)
                }
            )
            choices.append(
                TurnChoice(
                    number, _short(text_of(said)), _short(session.answer(number) or ""), tools
                )
            )
        found.append(SessionTurns(result.path, result.format, choices, result.chosen_turns))
    return found


def _turns(value: Any) -> list[str]:
    if isinstance(value, str):
        return [f"user: {_short(value)}"]
    if not isinstance(value, list):
        return [_short(_text(value))] if value is not None else []
    shown = []
    for message in value:
        if not isinstance(message, dict):
            continue
        text = _short(text_of(message.get("content")))
        calls = [
            str(call.get("tool"))
            for call in message.get("tool_calls") or []
            if isinstance(call, dict)
        ]
        if calls:
            text = (text + " " if text else "") + f"[calls {', '.join(calls)}]"
        shown.append(f"{message.get('role')}: {text}")
    return shown


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return "\n".join(
            text_of(item.get("content")) if isinstance(item, dict) else str(item) for item in value
        )
    return text_of(value)


def _filled(prompt: str, variables: dict[str, Any]) -> str:
    """The prompt with each `{{ name }}` replaced by the variable (an approximation of
    AgentV's rendering, for the preview only)."""
    return _VARIABLE.sub(lambda match: str(variables.get(match.group(1), match.group(0))), prompt)


def _warning(field: str, message: str) -> str:
    return f"{field}: {message}" if field else message


def _assert_name(entry: Any) -> str:
    if isinstance(entry, dict):
        return str(entry.get("type"))
    return "rubric"


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"

"""The rules that read one case alone (docs/user-guide.md, "Lint rules")."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from evals_app.formatting.lint.rules import Finding, Section, finding
from evals_app.formatting.lint.subject import LintCase
from evals_app.formatting.lint.text import file_values, is_vague, message_texts, words
from evals_app.formatting.workspace_files import UndecodableFileError, resolve_file

# A span of the expected answer this many words long found in the input is a leak; a whole
# answer of at least LEAK_MIN_WORDS words is one too (a shorter one, "Paris", is not).
LEAK_SPAN_WORDS = 12
LEAK_MIN_WORDS = 4

_SECTION_FIELDS: dict[Section, str] = {"input": "input", "expected": "expected_output"}
_TAG = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)
_STRING = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'""")
_NAME = re.compile(r"(?<![.\w])([A-Za-z_]\w*)(?:\s*\.\s*([A-Za-z_]\w*))?")
# Names a template may use that are not variables: literals, operators, AgentV's environment.
_NOT_VARIABLES = frozenset({"true", "false", "null", "none", "and", "or", "not", "in", "env"})


def case_findings(case: LintCase) -> Iterator[Finding]:
    """Every finding of the one-case rules, in the order of the case's fields."""
    yield from _role_order(case)
    yield from _tool_pairing(case)
    yield from _empty_turns(case)
    yield from _answer_in_input(case)
    yield from _variables(case)
    if not case.graded:
        yield finding(
            "no-grader",
            "The case has no outcome, criteria, rubric, assert or evaluator to be graded by.",
        )
    for field, text in case.rubrics:
        if is_vague(text):
            yield finding(
                "vague-rubric",
                f"The rubric {_quoted(text)} in {field} is too short or says only vague words.",
                field=field,
            )
    yield from _missing_attachments(case)


def turn_name(section: Section, turn: int) -> str:
    """How a message is named in a finding: `input turn 3`, `expected message 1`."""
    return f"input turn {turn + 1}" if section == "input" else f"expected message {turn + 1}"


def _field(section: Section, turn: int, name: str = "") -> str:
    path = f"{_SECTION_FIELDS[section]}[{turn}]"
    return f"{path}.{name}" if name else path


def _role_order(case: LintCase) -> Iterator[Finding]:
    previous = ""
    started = False
    for turn, message in enumerate(case.input_messages):
        role = message.get("role")
        problem = ""
        if role == "user" and previous == "user":
            problem = f"is a second user turn in a row: turn {turn} has no assistant answer."
        elif role == "tool" and previous not in ("assistant", "tool"):
            problem = "is a tool result that no assistant turn comes before."
        elif role == "system" and started and case.role_order.later_system:
            problem = (
                "is a system turn after the conversation has begun: it is sent as "
                f"{case.role_order.later_system}."
            )
        if problem:
            yield finding(
                "role-order",
                f"Input turn {turn + 1} {problem}",
                field=_field("input", turn, "role"),
                section="input",
                turn=turn,
            )
        started = started or role != "system"
        previous = role if isinstance(role, str) else ""


def _tool_pairing(case: LintCase) -> Iterator[Finding]:
    """Results name their call by `tool_call_id`; a call with its `output` inline answers
    itself. Only the input is read: expected messages are what the model should do next."""
    open_calls: dict[str, int] = {}
    for turn, message in enumerate(case.input_messages):
        calls = message.get("tool_calls")
        if message.get("role") == "assistant" and isinstance(calls, list):
            for call in calls:
                if (
                    isinstance(call, Mapping)
                    and isinstance(call.get("id"), str)
                    and "output" not in call
                ):
                    open_calls[call["id"]] = turn
        call_id = message.get("tool_call_id")
        if message.get("role") == "tool" and isinstance(call_id, str):
            if call_id in open_calls:
                del open_calls[call_id]
            else:
                yield finding(
                    "tool-pairing",
                    f"Input turn {turn + 1} answers the tool call {_quoted(call_id)}, which no "
                    "earlier assistant turn makes.",
                    field=_field("input", turn, "tool_call_id"),
                    section="input",
                    turn=turn,
                )
    last = len(case.input_messages) - 1
    for call_id, turn in open_calls.items():
        if turn == last:
            continue  # the conversation ends on the call: the run gives its result
        yield finding(
            "tool-pairing",
            f"The tool call {_quoted(call_id)} of input turn {turn + 1} has no tool result.",
            field=_field("input", turn, "tool_calls"),
            section="input",
            turn=turn,
        )


def _empty_turns(case: LintCase) -> Iterator[Finding]:
    for section, messages in _sections(case):
        for turn, message in enumerate(messages):
            if _is_empty(message):
                yield finding(
                    "empty-turn",
                    f"{turn_name(section, turn).capitalize()} has no text, file or tool call.",
                    field=_field(section, turn, "content"),
                    section=section,
                    turn=turn,
                )


def _is_empty(message: Mapping[Any, Any]) -> bool:
    if message.get("tool_calls"):
        return False
    content = message.get("content")
    if content is None:
        return True
    if isinstance(content, str):
        return not content.strip()
    if isinstance(content, list):
        return all(
            (isinstance(item, str) and not item.strip())
            or (
                isinstance(item, Mapping)
                and item.get("type") == "text"
                and not str(item.get("value", item.get("text")) or "").strip()
            )
            for item in content
        )
    return False  # a mapping or another value: formatting reports it


def _answer_in_input(case: LintCase) -> Iterator[Finding]:
    expected = [word for message in case.expected_messages for word in _words_of(message)]
    if len(expected) < LEAK_MIN_WORDS:
        return
    span = min(LEAK_SPAN_WORDS, len(expected))
    spans = {tuple(expected[start : start + span]) for start in range(len(expected) - span + 1)}
    for turn, message in enumerate(case.input_messages):
        found = _words_of(message)
        if any(
            tuple(found[start : start + span]) in spans for start in range(len(found) - span + 1)
        ):
            whole = (
                "The expected answer"
                if span == len(expected)
                else "A long span of the expected answer"
            )
            yield finding(
                "answer-in-input",
                f"{whole} ({span} words) is in input turn {turn + 1}.",
                field=_field("input", turn, "content"),
                section="input",
                turn=turn,
            )


def _words_of(message: Mapping[Any, Any]) -> list[str]:
    return [word for text in message_texts(message) for word in words(text)]


def _variables(case: LintCase) -> Iterator[Finding]:
    if case.variables is None:
        return
    used: set[str] = set()
    places: list[_Place] = []
    for section, messages in _sections(case):
        for turn, message in enumerate(messages):
            for name in _template_names(_all_strings(message.get("content"))):
                places.append(_Place(name, _field(section, turn, "content"), section, turn))
    for field, text in case.templates:
        for name in _template_names([text]):
            places.append(_Place(name, field))
    reported: set[tuple[str, str]] = set()
    for place in places:
        used.add(place.name)
        if place.name in case.variables or (place.name, place.field) in reported:
            continue
        reported.add((place.name, place.field))
        where = place.field
        if place.section is not None and place.turn is not None:
            where = turn_name(place.section, place.turn)
        yield finding(
            "undefined-variable",
            f"`{{{{ {place.name} }}}}` in {where} is not defined in vars: it renders empty.",
            field=place.field,
            section=place.section,
            turn=place.turn,
        )
    for name in case.own_variables:
        if name not in used:
            yield finding(
                "unused-variable",
                f"The variable {_quoted(name)} is defined in vars but no template uses it.",
                field=f"vars.{name}",
            )


class _Place(NamedTuple):
    """Where a template names a variable."""

    name: str
    field: str
    section: Section | None = None
    turn: int | None = None


def _sections(case: LintCase) -> tuple[tuple[Section, tuple[Mapping[Any, Any], ...]], ...]:
    return (("input", case.input_messages), ("expected", case.expected_messages))


def _all_strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [text for item in value for text in _all_strings(item)]
    if isinstance(value, Mapping):
        return [text for item in value.values() for text in _all_strings(item)]
    return []


def template_strings(value: Any) -> list[str]:
    """Every string at any depth of `value`: the texts a template pass renders."""
    return _all_strings(value)


def _template_names(texts: list[str]) -> Iterator[str]:
    """The variables each `{{ … }}` of `texts` names: `x`, `vars.x` and `x.member` all name
    `x`; names inside string literals and after a dot are not variables."""
    for text in texts:
        if "{{" not in text:
            continue
        for tag in _TAG.finditer(text):
            expression = _STRING.sub("", tag.group(1))
            for match in _NAME.finditer(expression):
                first, member = match.group(1), match.group(2)
                if first == "vars":
                    if member:
                        yield member
                elif first.lower() not in _NOT_VARIABLES:
                    yield first


def _missing_attachments(case: LintCase) -> Iterator[Finding]:
    if case.files is None:
        return
    for section, messages in _sections(case):
        for turn, message in enumerate(messages):
            for value in file_values(message):
                if not _resolves(value, case):
                    yield finding(
                        "missing-attachment",
                        f"{turn_name(section, turn).capitalize()} attaches "
                        f"{_quoted(value)}, which the workspace does not hold.",
                        field=_field(section, turn, "content"),
                        section=section,
                        turn=turn,
                    )
    for field, value in case.attachments:
        if not _resolves(value, case):
            yield finding(
                "missing-attachment",
                f"{field} attaches {_quoted(value)}, which the workspace does not hold.",
                field=field,
            )


def _resolves(value: str, case: LintCase) -> bool:
    assert case.files is not None
    try:
        resolution = resolve_file(value, case.eval_path, case.files)
    except UndecodableFileError:
        return True  # it is there; formatting reports that it cannot be read
    return resolution.file is not None or resolution.undecodable_path is not None


def _quoted(text: str, limit: int = 60) -> str:
    shown = " ".join(text.split())
    return f"“{shown[: limit - 1]}…”" if len(shown) > limit else f"“{shown}”"

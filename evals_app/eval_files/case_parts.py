"""The one mapping between a case's YAML document and the parts the app edits and formats.

A case of any period keeps its id, conversation, expected answer, outcome, target and
evaluators under one of several names and in one of several shapes (docs/formats.md).
`split_case` finds each part and notes where it was and in which shape (its `Spelling`);
`join_case` puts the parts back exactly there, so a case that was not changed comes back as it
was, key for key, and a changed one keeps its spelling. Import, export, the editor's drafts and
formatting all go through these two functions.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from ..formatting.case_input import CaseInput, MessageInput
from .dialects import (
    EVALUATOR_PATHS,
    EXPECTED_PATHS,
    ID_KEYS,
    INPUT_PATHS,
    OUTCOME_KEYS,
    ROLES,
)
from .errors import EvalFileError
from .merge_keys import merged

# How a list of messages was written: a list, one message mapping, a plain string (one message
# of the slot's default role), or a mapping without `role` (the content of one such message).
MessagesForm = Literal["messages", "message", "string", "content"]
TARGET_PATHS: tuple[tuple[str, ...], ...] = (("execution", "target"), ("target",))


@dataclass(frozen=True)
class Spelling:
    """Where each part of a case lives, in which shape, and which parts the document had."""

    id_key: str = "id"
    outcome_key: str = "outcome"
    input_path: tuple[str, ...] = ("input_messages",)
    input_form: MessagesForm = "messages"
    expected_path: tuple[str, ...] = ("expected_messages",)
    expected_form: MessagesForm = "messages"
    target_path: tuple[str, ...] = ("execution", "target")
    evaluators_path: tuple[str, ...] = ("execution", "evaluators")
    present: frozenset[str] = frozenset()

    def as_json(self) -> dict[str, Any]:
        """The spelling as plain data, for a hidden form field."""
        return {
            "id_key": self.id_key,
            "outcome_key": self.outcome_key,
            "input_path": list(self.input_path),
            "input_form": self.input_form,
            "expected_path": list(self.expected_path),
            "expected_form": self.expected_form,
            "target_path": list(self.target_path),
            "evaluators_path": list(self.evaluators_path),
            "present": sorted(self.present),
        }

    @classmethod
    def from_json(cls, data: Any) -> Spelling:
        """The spelling `as_json` wrote; raises ValueError when it is not one."""
        if not isinstance(data, dict):
            raise ValueError("a spelling is a mapping")
        try:
            spelling = cls(
                id_key=_one_of(data["id_key"], ID_KEYS),
                outcome_key=_one_of(data["outcome_key"], OUTCOME_KEYS),
                input_path=_one_of(tuple(data["input_path"]), INPUT_PATHS),
                input_form=_one_of(data["input_form"], _FORMS),
                expected_path=_one_of(tuple(data["expected_path"]), EXPECTED_PATHS),
                expected_form=_one_of(data["expected_form"], _FORMS),
                target_path=_one_of(tuple(data["target_path"]), TARGET_PATHS),
                evaluators_path=_one_of(tuple(data["evaluators_path"]), EVALUATOR_PATHS),
                present=frozenset(_one_of(name, _PARTS) for name in data["present"]),
            )
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a spelling: {error}") from None
        return spelling


_FORMS: tuple[MessagesForm, ...] = ("messages", "message", "string", "content")
_PARTS = ("outcome", "input", "expected", "target", "evaluators")
# The two conversations of a case, as the editor shows them and comments point into them.
SECTIONS = ("input", "expected")

# The spelling of a new case in a file of each period, when the file has no case to copy.
NEW_CASE_SPELLINGS: dict[str | None, Spelling] = {
    "evalcases": Spelling(),
    "eval_cases": Spelling(
        outcome_key="expected_outcome",
        input_path=("input",),
        expected_path=("expected_output",),
        evaluators_path=("evaluators",),
    ),
    "cases": Spelling(
        outcome_key="criteria",
        input_path=("input",),
        expected_path=("expected_output",),
        evaluators_path=("evaluators",),
    ),
    "tests": Spelling(
        outcome_key="criteria",
        input_path=("input",),
        expected_path=("expected_output",),
        evaluators_path=("evaluators",),
    ),
}
NEW_CASE_SPELLINGS[None] = NEW_CASE_SPELLINGS["tests"]


@dataclass
class CaseParts:
    """A case seen through its spelling. `skeleton` is the document without the parts' values
    (None stands where each present part was), so the keys keep their places."""

    case_id: str
    outcome: Any = None
    input_messages: list[dict[Any, Any]] = field(default_factory=list)
    expected_messages: list[dict[Any, Any]] = field(default_factory=list)
    target: Any = None
    evaluators: list[Any] | None = None
    spelling: Spelling = field(default_factory=Spelling)
    skeleton: dict[Any, Any] = field(default_factory=dict)
    # A part found in a shape the app cannot take apart stays in the skeleton, as written.
    unread: tuple[str, ...] = ()

    def other_fields(self) -> dict[Any, Any]:
        """The case's keys that are none of its parts, in order (a mapping such as `vars` or
        `execution` without the parts it held; left out when nothing else is in it)."""
        spelling = self.spelling
        part_paths = {
            (spelling.id_key,),
            (spelling.outcome_key,),
            spelling.input_path,
            spelling.expected_path,
            spelling.target_path,
            spelling.evaluators_path,
        }
        others: dict[Any, Any] = {}
        for key, value in self.skeleton.items():
            if value is None and (key,) in part_paths:
                continue
            if isinstance(value, dict) and any(path[:1] == (key,) for path in part_paths):
                value = {
                    inner: item
                    for inner, item in value.items()
                    if not (item is None and (key, inner) in part_paths)
                }
                if not value:
                    continue
            others[key] = value
        return others


def split_case(document: dict[Any, Any]) -> CaseParts:
    """The parts of a case mapping (a case of any period), its merge keys merged as AgentV
    reads them (merge_keys.py). Raises EvalFileError for what no AgentV would read: no text
    id, a message that is not a mapping or has an unknown role."""
    document = merged(document)
    try:
        return _split_case(document)
    except EvalFileError as error:
        case_id = next((document[key] for key in ID_KEYS if key in document), None)
        if isinstance(case_id, str) and case_id.strip():
            error.case_id = case_id
        raise


def _split_case(document: dict[Any, Any]) -> CaseParts:
    skeleton = copy.copy(document)
    id_key = next((key for key in ID_KEYS if key in document), "id")
    case_id = document.get(id_key)
    if isinstance(case_id, (int, float)) and not isinstance(case_id, bool):
        # YAML reads `id: 7` as a number, which no AgentV takes as an id: name the value so
        # the user can quote it.
        raise EvalFileError(
            f"a case id must be text, not the number {case_id!r} (write it quoted: '{case_id}')",
            field=id_key,
        )
    if not isinstance(case_id, str) or not case_id.strip():
        shown = "is required" if case_id is None else "must be non-empty text"
        raise EvalFileError(f"a case id {shown}", field=id_key)
    present: set[str] = set()
    unread: list[str] = []

    outcome_key = next((key for key in OUTCOME_KEYS if key in document), "outcome")
    outcome = document.get(outcome_key)
    if outcome_key in document:
        present.add("outcome")
        skeleton[outcome_key] = None

    input_path, input_form, input_messages = _take_messages(
        skeleton, INPUT_PATHS, "user", "input", present, unread
    )
    expected_path, expected_form, expected_messages = _take_messages(
        skeleton, EXPECTED_PATHS, "assistant", "expected", present, unread
    )

    target_path, target = TARGET_PATHS[0], None
    found_target = _take(skeleton, TARGET_PATHS)
    if found_target is not None:
        target_path, target = found_target
        present.add("target")

    evaluators_path, evaluators = EVALUATOR_PATHS[0], None
    found_evaluators = _take(skeleton, EVALUATOR_PATHS)
    if found_evaluators is not None:
        evaluators_path, value = found_evaluators
        if isinstance(value, list):
            evaluators = value
            present.add("evaluators")
        else:
            unread.append("evaluators")
            _put(skeleton, evaluators_path, value)

    spelling = Spelling(
        id_key=id_key,
        outcome_key=outcome_key,
        input_path=input_path,
        input_form=input_form,
        expected_path=expected_path,
        expected_form=expected_form,
        target_path=target_path,
        evaluators_path=evaluators_path,
        present=frozenset(present),
    )
    skeleton[id_key] = None
    return CaseParts(
        case_id=case_id,
        outcome=outcome,
        input_messages=input_messages,
        expected_messages=expected_messages,
        target=target,
        evaluators=evaluators,
        spelling=spelling,
        skeleton=skeleton,
        unread=tuple(unread),
    )


def join_case(parts: CaseParts) -> dict[Any, Any]:
    """The case mapping of `parts`: each part back where its spelling says, in its shape."""
    spelling = parts.spelling
    document = dict(parts.skeleton)
    document[spelling.id_key] = parts.case_id
    if spelling.id_key not in parts.skeleton:  # a new case: the id comes first
        document = {spelling.id_key: parts.case_id, **document}
    _join_value(document, (spelling.outcome_key,), parts.outcome, "outcome" in spelling.present)
    if "input" not in parts.unread:
        _join_messages(document, spelling.input_path, spelling.input_form, "user", parts, "input")
    if "expected" not in parts.unread:
        _join_messages(
            document, spelling.expected_path, spelling.expected_form, "assistant", parts, "expected"
        )
    _join_value(document, spelling.target_path, parts.target, "target" in spelling.present)
    if "evaluators" not in parts.unread:
        evaluators = parts.evaluators
        if "evaluators" in spelling.present:
            _put(document, spelling.evaluators_path, evaluators if evaluators is not None else [])
        elif evaluators:
            _put(document, spelling.evaluators_path, evaluators)
    return document


def new_case_spelling(cases_key: str | None, *, prompts: bool = False) -> Spelling:
    """How a new case of a file with this list of cases spells its parts. In a file with
    `prompts` (today's format) the conversation and the expected answer are variables."""
    spelling = NEW_CASE_SPELLINGS.get(cases_key, Spelling())
    if prompts:
        spelling = replace(
            spelling, input_path=("vars", "input"), expected_path=("vars", "expected_output")
        )
    return spelling


def spell_absent_parts(spelling: Spelling, like: Spelling) -> Spelling:
    """`spelling` with the parts the case lacks placed where `like` places them, so that an
    outcome typed into a today's test becomes its `criteria`, not an `outcome` key."""
    present = spelling.present
    return replace(
        spelling,
        outcome_key=spelling.outcome_key if "outcome" in present else like.outcome_key,
        input_path=spelling.input_path if "input" in present else like.input_path,
        expected_path=spelling.expected_path if "expected" in present else like.expected_path,
        evaluators_path=(
            spelling.evaluators_path if "evaluators" in present else like.evaluators_path
        ),
    )


def new_case_parts(
    case_id: str, like: CaseParts | None, cases_key: str | None, *, prompts: bool = False
) -> CaseParts:
    """An empty case spelled like `like` (a case of the same file), else as new cases of a file
    with this list of cases are spelled (`new_case_spelling`): one empty user turn. A part
    `like` lacks goes where the file's new cases put it, so a `tests` file never gets an
    `outcome` key from a first test without criteria."""
    spelling = new_case_spelling(cases_key, prompts=prompts)
    if like is not None:
        spelling = spell_absent_parts(like.spelling, spelling)
    spelling = replace(spelling, present=frozenset({"outcome", "input"}))
    return CaseParts(
        case_id=case_id,
        outcome="",
        input_messages=[{"role": "user", "content": ""}],
        spelling=replace(spelling, input_form="messages"),
        skeleton={},
    )


def _one_of(value: Any, allowed: tuple[Any, ...]) -> Any:
    if value not in allowed:
        raise ValueError(f"{value!r} is not one of {allowed}")
    return value


def _field(path: tuple[str, ...]) -> str:
    return ".".join(path)


def _take_messages(
    skeleton: dict[Any, Any],
    paths: tuple[tuple[str, ...], ...],
    default_role: str,
    part: str,
    present: set[str],
    unread: list[str],
) -> tuple[tuple[str, ...], MessagesForm, list[dict[Any, Any]]]:
    """Take the conversation or the expected answer out of `skeleton`: where it was, in which
    shape, its messages. A value that holds no messages stays in the skeleton, as written."""
    found = _take(skeleton, paths)
    if found is None:
        return paths[0], "messages", []
    path, value = found
    read = _read_messages(value, default_role, _field(path))
    if read is None:
        unread.append(part)
        _put(skeleton, path, value)
        return path, "messages", []
    present.add(part)
    return path, read[0], read[1]


def _take(document: dict[Any, Any], paths: tuple[tuple[str, ...], ...]) -> Any:
    """The first of `paths` present in `document`, and its value, which is replaced by None in
    `document` (whose containers along the path are copied first, never changed in place)."""
    for path in paths:
        container: Any = document
        for key in path[:-1]:
            container = container.get(key) if isinstance(container, dict) else None
        if isinstance(container, dict) and path[-1] in container:
            value = container[path[-1]]
            _put(document, path, None)
            return path, value
    return None


def _put(document: dict[Any, Any], path: tuple[str, ...], value: Any) -> None:
    """Set `path` in `document`, copying (or creating) each mapping on the way."""
    container = document
    for key in path[:-1]:
        inner = container.get(key)
        inner = dict(inner) if isinstance(inner, dict) else {}
        container[key] = inner
        container = inner
    container[path[-1]] = value


def _delete(document: dict[Any, Any], path: tuple[str, ...]) -> None:
    """Remove `path` from `document`, copying each mapping on the way (never changing the
    skeleton a draft was made from)."""
    container = document
    for key in path[:-1]:
        inner = container.get(key)
        if not isinstance(inner, dict):
            return
        container[key] = inner = dict(inner)
        container = inner
    container.pop(path[-1], None)


def _join_value(document: dict[Any, Any], path: tuple[str, ...], value: Any, present: bool) -> None:
    # A part the case had is written back even when empty; one it lacked only when it has text.
    if present or value not in (None, ""):
        _put(document, path, value)


def _join_messages(
    document: dict[Any, Any],
    path: tuple[str, ...],
    form: MessagesForm,
    default_role: str,
    parts: CaseParts,
    part: str,
) -> None:
    messages = parts.input_messages if part == "input" else parts.expected_messages
    present = part in parts.spelling.present
    if not messages and not present:
        return
    if not messages and form != "messages":
        _delete(document, path)  # `expected_output: text` whose turn was removed: no key
        return
    _put(document, path, _messages_value(messages, form, default_role))


def _messages_value(messages: list[dict[Any, Any]], form: MessagesForm, default_role: str) -> Any:
    """The messages in the shape they were written in, while that shape can still hold them."""
    if len(messages) == 1:
        only = messages[0]
        plain = set(only) == {"role", "content"} and only["role"] == default_role
        if form == "string" and plain and isinstance(only["content"], str):
            return only["content"]
        if form == "content" and plain and isinstance(only["content"], dict):
            return only["content"]
        if form == "message":
            return only
    return messages


def _read_messages(
    value: Any, default_role: str, field_name: str
) -> tuple[MessagesForm, list[dict[Any, Any]]] | None:
    """The messages a conversation value holds, and its shape; None for a shape that holds
    no messages (a number, null): it is then kept as written."""
    if isinstance(value, str):
        return "string", [{"role": default_role, "content": value}]
    if isinstance(value, dict):
        if "role" in value:
            _check_message(value, f"{field_name}")
            return "message", [value]
        return "content", [{"role": default_role, "content": value}]
    if isinstance(value, list):
        for index, message in enumerate(value):
            _check_message(message, f"{field_name}[{index}]")
        return "messages", value
    return None


def _check_message(message: Any, field_name: str) -> None:
    if not isinstance(message, dict):
        raise EvalFileError("a message must be a mapping with `role`", field=field_name)
    role = message.get("role")
    if role not in ROLES:
        shown = "a message needs a role" if "role" not in message else f"unknown role {role!r}"
        raise EvalFileError(
            f"{shown} (expected system, user, assistant or tool)", field=f"{field_name}.role"
        )


# Grading the 2025 engine does not read, but which means a case is graded all the same.
OTHER_GRADING_KEYS = ("rubrics", "assert", "assertions")


def file_evaluators(header: dict[Any, Any]) -> tuple[Any, ...]:
    """The evaluators a file gives every case that names none of its own."""
    header = merged(header)
    for path in EVALUATOR_PATHS:
        container: Any = header
        for key in path:
            container = container.get(key) if isinstance(container, dict) else None
        if isinstance(container, list):
            return tuple(container)
    return ()


def case_input(parts: CaseParts, file_level_evaluators: tuple[Any, ...] = ()) -> CaseInput:
    """What the formatting engine reads of a case (docs/formatting.md, "Inputs")."""
    evaluators = tuple(parts.evaluators) if parts.evaluators is not None else file_level_evaluators
    return CaseInput(
        id=parts.case_id,
        input_messages=tuple(
            MessageInput(message["role"], message.get("content"))
            for message in parts.input_messages
        ),
        expected_messages=tuple(
            MessageInput(message["role"], message.get("content"))
            for message in parts.expected_messages
        ),
        outcome=parts.outcome,
        evaluators=evaluators,
        graded_otherwise=any(key in parts.skeleton for key in OTHER_GRADING_KEYS),
    )

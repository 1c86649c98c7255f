"""Saving a case from the editor or from pasted YAML: validated, versioned, never a lost update."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max

from ..formatting.errors import EvalFileError
from ..formatting.eval_file import validate_case
from ..formatting.yaml_dumper import dump_yaml
from ..formatting.yaml_loader import load_yaml
from ..models import Case, Suite
from .documents import case_document, case_row, store_messages, with_conversation
from .review_workflow import dismiss_approval_on_edit
from .revisions import ensure_base_revision, record_revision


class CaseConflict(Exception):
    """Someone saved the case after the editor loaded it; carries their version."""

    def __init__(self, current: Case) -> None:
        super().__init__(f"case {current.case_id!r} was saved by someone else (v{current.version})")
        self.current = current


@dataclass(frozen=True)
class Difference:
    """One place where two versions of a case differ, for showing a conflict."""

    label: str
    theirs: str
    yours: str


def save_case(
    case: Case,
    document: dict[str, Any],
    base_version: int,
    author: User | None = None,
    summary: str = "edited",
) -> Case:
    """Replace `case` with `document` if it is still at `base_version`, recording a revision.

    Raises EvalFileError when the document is invalid or its id is taken in the suite, and
    CaseConflict when the stored case has moved on since `base_version`. Saving what is
    already stored changes nothing (no new version, no revision, an approval stays).
    """
    validate_case(document)
    with transaction.atomic():
        current = with_conversation(Case.objects.select_for_update()).get(pk=case.pk)
        if current.version != base_version:
            raise CaseConflict(current)
        _check_id_free(current.suite_id, document["id"], current.pk)
        return _replace_content(current, document, author, summary)


def paste_case(suite: Suite, source: str, author: User | None = None) -> tuple[Case, bool]:
    """Create a case from a YAML snippet, or replace the case with the same id.

    The snippet is one case mapping (or a list holding one). Returns the case and whether it
    was created. Raises EvalFileError, located in the snippet, when it is not valid.
    """
    loaded = load_yaml(source)
    data = loaded.data
    if isinstance(data, list) and len(data) == 1:
        data = data[0]
    try:
        validate_case(data)
    except EvalFileError as error:
        if isinstance(loaded.data, list):
            raise
        error.line = load_yaml(source, track_lines=True).line_of(_path_of(error.field))
        raise
    with transaction.atomic():
        Suite.objects.select_for_update().get(pk=suite.pk)
        existing = (
            with_conversation(suite.cases.select_for_update()).filter(case_id=data["id"]).first()
        )
        if existing is not None:
            return _replace_content(existing, data, author, "replaced from pasted YAML"), False
        last = suite.cases.aggregate(last=Max("position"))["last"]
        case = case_row(data, 0 if last is None else last + 1)
        case.suite = suite
        case.save()
        store_messages([(case, data)])
        record_revision(case, author, "created from pasted YAML", data)
        return case, True


def differences(theirs: dict[str, Any], yours: dict[str, Any]) -> list[Difference]:
    """What differs between two case mappings, field by field and turn by turn."""
    found = []
    for key, label in (
        ("id", "Id"),
        ("conversation_id", "Conversation id"),
        ("outcome", "Outcome"),
    ):
        if theirs.get(key) != yours.get(key):
            found.append(Difference(label, _text(theirs.get(key)), _text(yours.get(key))))
    for key, label in (("input_messages", "Input turn"), ("expected_messages", "Expected turn")):
        their_turns = theirs.get(key) or []
        your_turns = yours.get(key) or []
        for index in range(max(len(their_turns), len(your_turns))):
            their_turn = their_turns[index] if index < len(their_turns) else None
            your_turn = your_turns[index] if index < len(your_turns) else None
            if their_turn != your_turn:
                found.append(
                    Difference(
                        f"{label} {index + 1}", _turn_text(their_turn), _turn_text(your_turn)
                    )
                )
    if theirs.get("execution") != yours.get("execution"):
        found.append(
            Difference("Evaluators", _text(theirs.get("execution")), _text(yours.get("execution")))
        )
    return found


def _replace_content(
    case: Case, document: dict[str, Any], author: User | None, summary: str
) -> Case:
    stored = case_document(case)
    if stored == document:
        return case
    ensure_base_revision(case, stored)
    fields = case_row(document, case.position)
    for name in ("case_id", "conversation_id", "outcome", "execution", "extra", "key_order"):
        setattr(case, name, getattr(fields, name))
    case.version += 1
    case.summary_current = False  # the suite page recomputes it (case_summaries)
    case.save()
    case.messages.all().delete()
    store_messages([(case, document)])
    record_revision(case, author, summary, document)
    dismiss_approval_on_edit(case, author)
    return case


def _check_id_free(suite_id: int, case_id: str, own_pk: int) -> None:
    if Case.objects.filter(suite_id=suite_id, case_id=case_id).exclude(pk=own_pk).exists():
        raise EvalFileError("another case of this suite has this id", case_id=case_id, field="id")


def _path_of(field: str | None) -> tuple[str | int, ...]:
    if not field:
        return ()
    path: list[str | int] = []
    for part in field.replace("]", "").replace("[", ".").split("."):
        if part:
            path.append(int(part) if part.isdigit() else part)
    return tuple(path)


def _text(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    return dump_yaml(value).rstrip("\n")


def _turn_text(turn: dict[str, Any] | None) -> str:
    if turn is None:
        return "(no turn)"
    content = turn["content"]
    if isinstance(content, str):
        return f"{turn['role']}: {content}"
    parts = [
        item if isinstance(item, str) else f"[{item['type']}] {item['value']}" for item in content
    ]
    return f"{turn['role']}: " + "\n".join(parts)

"""Saving a case from the editor or from pasted YAML: validated, versioned, never a lost update."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from ...eval_files.case_parts import CaseParts, split_case
from ...eval_files.errors import EvalFileError, field_path
from ...eval_files.merge_keys import respelled
from ...eval_files.reading import READ_ONLY_FORMATS, read_case
from ...eval_files.yaml_dumper import dump_yaml
from ...eval_files.yaml_loader import load_yaml
from ...models import Case, Suite
from ..review.revisions import ensure_base_revision, record_revision
from ..review.workflow import dismiss_approval_on_edit
from .documents import case_row
from .positions import end_positions
from .summaries import refresh_case


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
    parts = read_case(document)
    with transaction.atomic():
        # The suite's row is locked before the case's, in the order a sync locks them
        # (services/repository/three_way.py): locking both at once could deadlock with it.
        owner = Case.objects.filter(pk=case.pk).values("suite_id")
        Suite.objects.select_for_update().filter(pk__in=owner).first()
        current = Case.objects.select_for_update().select_related("suite").get(pk=case.pk)
        check_editable(current.suite)
        if current.version != base_version:
            raise CaseConflict(current)
        _check_id_free(current.suite_id, parts.case_id, current.pk)
        return _replace_content(current, document, parts, author, summary)


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
        parts = read_case(data)
    except EvalFileError as error:
        if isinstance(loaded.data, list):
            raise
        error.line = load_yaml(source, track_lines=True).line_of(field_path(error.field))
        raise
    check_editable(suite)
    with transaction.atomic():
        Suite.objects.select_for_update().get(pk=suite.pk)
        existing = suite.cases.select_for_update().filter(case_id=parts.case_id).first()
        if existing is not None:
            summary = "replaced from pasted YAML"
            return _replace_content(existing, data, parts, author, summary), False
        case = case_row(data, end_positions(suite.cases.all())[0], parts)
        case.suite = suite
        refresh_case(case, suite)
        case.save()
        record_revision(case, author, "created from pasted YAML", data)
        return case, True


def differences(
    theirs: dict[Any, Any], yours: dict[Any, Any], *, spelled: bool = False
) -> list[Difference]:
    """What differs between two case mappings, part by part and turn by turn; with `spelled`,
    each part is named by its key in the stored case's own spelling (`criteria`, `input 2`),
    as the API names them (docs/api.md)."""
    their_parts, your_parts = _parts(theirs), _parts(yours)
    spelling = their_parts.spelling
    names = (
        ("id", spelling.outcome_key, ".".join(spelling.input_path))
        if spelled
        else ("Id", "Outcome", "Input turn")
    )
    expected_name = ".".join(spelling.expected_path) if spelled else "Expected turn"
    found = []
    if their_parts.case_id != your_parts.case_id:
        found.append(Difference(names[0], their_parts.case_id, your_parts.case_id))
    if their_parts.outcome != your_parts.outcome:
        found.append(Difference(names[1], _text(their_parts.outcome), _text(your_parts.outcome)))
    for label, their_turns, your_turns in (
        (names[2], their_parts.input_messages, your_parts.input_messages),
        (expected_name, their_parts.expected_messages, your_parts.expected_messages),
    ):
        for index in range(max(len(their_turns), len(your_turns))):
            their_turn = their_turns[index] if index < len(their_turns) else None
            your_turn = your_turns[index] if index < len(your_turns) else None
            if their_turn != your_turn:
                found.append(
                    Difference(
                        f"{label} {index + 1}", _turn_text(their_turn), _turn_text(your_turn)
                    )
                )
    if (their_parts.target, their_parts.evaluators) != (your_parts.target, your_parts.evaluators):
        found.append(
            Difference(
                "Target and evaluators",
                _text({"target": their_parts.target, "evaluators": their_parts.evaluators}),
                _text({"target": your_parts.target, "evaluators": your_parts.evaluators}),
            )
        )
    their_others, your_others = their_parts.other_fields(), your_parts.other_fields()
    if their_others != your_others:
        found.append(Difference("Other fields", _text(their_others), _text(your_others)))
    return found


def _parts(document: dict[Any, Any]) -> CaseParts:
    # Both sides were validated when they were stored or posted.
    return split_case(document)


def _replace_content(
    case: Case, document: dict[Any, Any], parts: CaseParts, author: User | None, summary: str
) -> Case:
    stored = case.document
    # The editor works on the case as AgentV reads it, merge keys merged; the stored document
    # keeps the file's merge keys wherever the edit left their values alone.
    document = respelled(document, stored)
    if stored == document:
        return case
    ensure_base_revision(case, stored)
    case.case_id = parts.case_id
    case.document = document
    case.version += 1
    refresh_case(case, case.suite)  # stored with it: the suite page never recomputes it
    case.save()
    record_revision(case, author, summary, document)
    dismiss_approval_on_edit(case, author)
    return case


def check_editable(suite: Suite) -> None:
    """A CSV file's cases (and those of a folder of cases, or of `scenarios:`) are formatted
    and previewed, never edited (docs/formats.md)."""
    if suite.read_only:
        reason = READ_ONLY_FORMATS[suite.file_format]
        raise EvalFileError(f"{reason}; edit {suite.path} itself and import it again")


def _check_id_free(suite_id: int, case_id: str, own_pk: int) -> None:
    if Case.objects.filter(suite_id=suite_id, case_id=case_id).exclude(pk=own_pk).exists():
        raise EvalFileError("another case of this suite has this id", case_id=case_id, field="id")


def _text(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    return dump_yaml(value).rstrip("\n")


def _turn_text(turn: dict[Any, Any] | None) -> str:
    if turn is None:
        return "(no turn)"
    content = turn.get("content")
    if isinstance(content, str):
        return f"{turn['role']}: {content}"
    if not isinstance(content, list):
        return f"{turn['role']}: " + _text({k: v for k, v in turn.items() if k != "role"})
    parts = [
        item
        if isinstance(item, str)
        else f"[{item.get('type')}] {item.get('value')}"
        if isinstance(item, dict) and isinstance(item.get("value"), str)
        else _text(item)
        for item in content
    ]
    return f"{turn['role']}: " + "\n".join(parts)

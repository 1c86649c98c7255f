"""A suite's list of cases: add, duplicate, delete and reorder, each touching a few rows
whatever the size of the suite (positions with gaps, services/cases/positions.py).

Every change locks the suite row first (STYLE.md, "Ordered children"), so two people reordering
the same suite take turns instead of interleaving their renumbering.
"""

from __future__ import annotations

import itertools
from typing import Literal, NamedTuple

from django.contrib.auth.models import User
from django.db import transaction

from ...eval_files.case_parts import CaseParts, join_case, new_case_parts, split_case
from ...eval_files.errors import EvalFileError
from ...eval_files.reading import case_id_problem
from ...models import ActivityRecord, Case, ReviewStatus, Suite
from ..review.revisions import record_revision
from ..workspaces.activity import record_activity
from .positions import end_positions, place_of, position_after, swap_positions
from .summaries import refresh_case
from .trash import trash_cases

Direction = Literal["up", "down"]
COPY_NAMES_PER_QUERY = 100


def create_case(suite: Suite, case_id: str, author: User | None = None) -> Case:
    """Append a case with `case_id`, an empty outcome and one empty user turn, spelled like
    the suite's first case (else as new cases of its file's period are).

    Raises EvalFileError (field "id") when the id is not one the app accepts (as in the
    editor: `case_id_problem`), is too long or is taken in the suite.
    """
    with transaction.atomic():
        _lock(suite.pk)
        _check_id(suite, case_id)
        document = join_case(new_case_of(suite, case_id))
        case = Case(
            suite=suite,
            position=end_positions(suite.cases.all())[0],
            case_id=case_id,
            document=document,
        )
        refresh_case(case, suite)
        case.save(force_insert=True)
        record_revision(case, author, "created", document)
    return case


def new_case_of(suite: Suite, case_id: str) -> CaseParts:
    """An empty case `case_id` of `suite`, spelled like its first case, else as new cases of
    its file's period are (`new_case_parts`)."""
    first = suite.cases.order_by("position").values_list("document", flat=True).first()
    try:
        like = split_case(first) if first is not None else None
    except EvalFileError:  # a first case edited into one no AgentV reads: the period decides
        like = None
    prompts = "prompts" in suite.document
    return new_case_parts(case_id, like, suite.cases_key or None, prompts=prompts)


class AddedCase(NamedTuple):
    """The case "Add case" opens, and whether this request created it."""

    case: Case
    created: bool


def add_case(suite: Suite, case_id: str, author: User) -> AddedCase:
    """`create_case`, except that when `author` already added a case with `case_id` that
    nobody changed since (one revision, theirs), that case is opened instead of refused: a
    double-click on "Add case" sends the form twice and must make one case, without an error
    (docs/user-guide.md, "Adding a case")."""
    with transaction.atomic():
        # The second request of a double-click waits here until the first one committed.
        suite = _lock(suite.pk)
        existing = suite.cases.filter(case_id=case_id, version=1).first()
        if existing is not None:
            authors = list(existing.revisions.values_list("author_id", flat=True)[:2])
            if authors == [author.pk]:
                return AddedCase(existing, created=False)
        return AddedCase(create_case(suite, case_id, author), created=True)


def duplicate_case(case: Case, author: User | None = None) -> Case:
    """Copy `case` with its whole document, right after the original.

    The copy's id is `<id>-copy`, or `<id>-copy-2`, `-copy-3`… when that is taken.
    """
    with transaction.atomic():
        suite = _lock(case.suite_id)
        original = Case.objects.get(pk=case.pk)
        duplicate = Case.objects.get(pk=case.pk)  # a second instance, saved below as a new row
        duplicate.pk = None
        duplicate._state.adding = True
        duplicate.case_id = unused_id(suite, original.case_id)
        duplicate.position = position_after(suite.cases.all(), original.position)
        duplicate.version = 1
        duplicate.status = ReviewStatus.DRAFT  # a copy is a new case: nobody reviewed it yet
        parts = split_case(original.document)
        parts.case_id = duplicate.case_id
        duplicate.document = join_case(parts)
        refresh_case(duplicate, suite)  # its warnings name the copy's id
        duplicate.save()
        summary = f"duplicated from {original.case_id}"
        record_revision(duplicate, author, summary, duplicate.document)
    return duplicate


def delete_case(case: Case, actor: User | None = None) -> str:
    """Delete `case` into the workspace's Deleted list (services/cases/trash.py); the others
    keep their positions (a gap is no harm). Returns the batch an Undo restores."""
    with transaction.atomic():
        suite = _lock(case.suite_id)
        current = list(Case.objects.select_related("suite").filter(pk=case.pk))
        batch = trash_cases(current, actor)
        action = ActivityRecord.Action.CASE_DELETED
        record_activity(suite.workspace_id, actor, action, case.case_id, f"from {suite.path}")
    return batch


def move_case(case: Case, direction: Direction, actor: User | None = None) -> bool:
    """Swap `case` with its neighbour above or below; False when it is already at that end."""
    with transaction.atomic():
        suite = _lock(case.suite_id)
        current = Case.objects.only("pk", "position").get(pk=case.pk)
        siblings = suite.cases.all()
        if direction == "up":
            later = siblings.filter(position__lt=current.position).order_by("-position")
        else:
            later = siblings.filter(position__gt=current.position).order_by("position")
        neighbour = later.only("pk", "position").first()
        if neighbour is None:
            return False
        swap_positions(siblings, current, neighbour)
        detail = f"{direction}, to place {place_of(siblings, current.position)}"
        action = ActivityRecord.Action.CASE_MOVED
        record_activity(suite.workspace_id, actor, action, case.case_id, detail, case=case)
    return True


def _lock(suite_pk: int) -> Suite:
    return Suite.objects.select_for_update().get(pk=suite_pk)


def _check_id(suite: Suite, case_id: str) -> None:
    """The same rules as the editor and Paste YAML (`read_case`), and unique in the suite."""
    problem = case_id_problem(case_id)
    if problem is not None:
        raise EvalFileError(f"{problem[0].upper()}{problem[1:]}.", case_id=case_id, field="id")
    if suite.cases.filter(case_id=case_id).exists():
        raise EvalFileError(
            f"A case with id {case_id!r} already exists in this suite.", case_id=case_id, field="id"
        )


def unused_id(suite: Suite, case_id: str, suffix: str = "copy") -> str:
    """An id for a copy of `case_id` that no case of `suite` has: `<id>-copy`, `<id>-copy-2`…
    (or another `suffix`)."""
    base = f"{case_id}-{suffix}"
    # The names a copy may take, looked up a hundred at a time by their exact ids (the unique
    # index), not by prefix, which would read every id of a large suite.
    candidate = ""
    for first in itertools.count(1, COPY_NAMES_PER_QUERY):
        names = [
            base if n == 1 else f"{base}-{n}" for n in range(first, first + COPY_NAMES_PER_QUERY)
        ]
        found = suite.cases.filter(case_id__in=names).order_by()  # no join for the ordering
        taken = set(found.values_list("case_id", flat=True))
        candidate = next((name for name in names if name not in taken), "")
        if candidate:
            break
    # An imported id may have what the app refuses (import only warns): the copy does not.
    problem = case_id_problem(candidate)
    if problem is not None:
        raise EvalFileError(
            f"The copy's id {candidate!r} is refused: {problem}.", case_id=case_id, field="id"
        )
    return candidate

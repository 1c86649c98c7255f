"""Acting on several cases of a suite at once: submit, approve, add or remove a tag, move to
another suite, delete.

Each action is one transaction that locks the suite rows first (STYLE.md, "Ordered children").
A case the action cannot apply to is refused with the reason, the others go ahead: the result
names both, so the page can say what was done and what was not, and why. Moves and deletions
are recorded in the workspace's activity, one record per action naming its cases (a review
step records itself as a review event).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from ...eval_files.errors import EvalFileError
from ...models import ActivityRecord, Case, ReviewEvent, Suite
from ..review.workflow import ReviewError, move
from ..workspaces.activity import record_activity
from .editing import save_case
from .positions import end_positions
from .summaries import refresh_later
from .tags import checked_tag, with_tag, without_tag
from .trash import trash_cases


@dataclass
class BulkResult:
    """What a bulk action did: the ids of the cases it changed, and those it refused, why."""

    done: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)
    # A deletion's batch in the Deleted list, which its Undo restores.
    undo: str = ""


def submit_cases(suite: Suite, pks: Sequence[int], actor: User) -> BulkResult:
    """Submit the cases `pks` of `suite` for review."""
    return _review(suite, pks, actor, ReviewEvent.Action.SUBMITTED)


def approve_cases(suite: Suite, pks: Sequence[int], actor: User) -> BulkResult:
    """Approve the cases `pks` of `suite`; the review rules hold for each (services/
    review_workflow.py): only cases in review, and none that `actor` changed since its last
    approval."""
    return _review(suite, pks, actor, ReviewEvent.Action.APPROVED)


def move_cases(
    suite: Suite, pks: Sequence[int], target: Suite, actor: User | None = None
) -> BulkResult:
    """Move the cases `pks` of `suite` to the end of `target` (a suite of the same workspace),
    in their order; a case whose id `target` already has stays where it is."""
    result = BulkResult()
    if target.workspace_id != suite.workspace_id or target.pk == suite.pk:
        raise ValueError("Cases move to another suite of the same workspace.")
    with transaction.atomic():
        # Both suites, always locked in the same order, so two opposite moves cannot deadlock.
        list(Suite.objects.select_for_update().filter(pk__in=[suite.pk, target.pk]).order_by("pk"))
        cases = _current(suite, pks)
        ids = [case.case_id for case in cases]
        taken = set(target.cases.filter(case_id__in=ids).values_list("case_id", flat=True))
        moving = [case for case in cases if case.case_id not in taken]
        clash = f"{target.path} already has a case with this id."
        result.refused = [(case.case_id, clash) for case in cases if case.case_id in taken]
        now = timezone.now()
        for case, position in zip(
            moving, end_positions(target.cases.all(), len(moving)), strict=True
        ):
            case.suite = target
            case.position = position
            # Files resolve from the eval file's folder: the summary may differ in its new suite.
            case.summary_current = False
            case.updated_at = now
        # The cases left behind keep their positions: a gap is no harm (positions.py).
        Case.objects.bulk_update(moving, ["suite", "position", "summary_current", "updated_at"])
        if moving:
            refresh_later(suite.workspace_id)
        result.done = [case.case_id for case in moving]
        if moving:
            _record(suite, actor, "moved", moving, f"from {suite.path} to {target.path}", target)
    return result


def tag_cases(
    suite: Suite, pks: Sequence[int], tag: str, actor: User, *, remove: bool = False
) -> BulkResult:
    """Add `tag` to the cases `pks` of `suite` (or remove it): each change is saved as an edit
    is, with its revision (docs/user-guide.md, "Tags"). A case that has the tag already (or
    has not) is left alone and not reported; TagError for a tag that cannot be one."""
    tag = checked_tag(tag)
    change = without_tag if remove else with_tag
    result = BulkResult()
    with transaction.atomic():
        _lock(suite)
        for case in _current(suite, pks):
            document = change(case.document, tag)
            if document is None:
                continue
            summary = f"tag {tag} {'removed' if remove else 'added'}"
            try:
                with transaction.atomic():  # a refusal undoes only that case
                    save_case(case, document, case.version, actor, summary=summary[:200])
            except EvalFileError as error:
                result.refused.append((case.case_id, error.message))
            else:
                result.done.append(case.case_id)
    return result


def delete_cases(suite: Suite, pks: Sequence[int], actor: User | None = None) -> BulkResult:
    """Delete the cases `pks` of `suite` into the workspace's Deleted list, with their threads,
    reviews and history (services/cases/trash.py)."""
    with transaction.atomic():
        _lock(suite)
        cases = _current(suite, pks)
        for case in cases:
            case.suite = suite
        batch = trash_cases(cases, actor)
        if cases:
            _record(suite, actor, "deleted", cases, f"from {suite.path}")
    return BulkResult(done=[case.case_id for case in cases], undo=batch)


def _review(suite: Suite, pks: Sequence[int], actor: User, action: str) -> BulkResult:
    result = BulkResult()
    with transaction.atomic():
        _lock(suite)
        for case in _current(suite, pks):
            try:
                move(case, actor, action)  # its own savepoint: a refusal undoes only that case
            except ReviewError as error:
                result.refused.append((case.case_id, str(error)))
            else:
                result.done.append(case.case_id)
    return result


Action = ActivityRecord.Action
# The most of a subject's length (ActivityRecord.subject) that the ids of the cases may take.
MAX_NAMED = 900


def _record(
    suite: Suite,
    actor: User | None,
    verb: str,
    cases: list[Case],
    detail: str,
    target: Suite | None = None,
) -> None:
    """One activity record for the action: one case reads as a single delete or move does (a
    moved case linked to its editor); several are named together, so a large selection does not
    push everything else off the feed."""
    if len(cases) == 1:
        action = Action.CASE_MOVED if verb == "moved" else Action.CASE_DELETED
        case = cases[0] if verb == "moved" else None
        record_activity(suite.workspace_id, actor, action, cases[0].case_id, detail, case=case)
        return
    action = Action.CASES_MOVED if verb == "moved" else Action.CASES_DELETED
    subject = _named([case.case_id for case in cases])
    detail = f"{len(cases)} cases, {detail}"
    record_activity(suite.workspace_id, actor, action, subject, detail, suite=target)


def _named(ids: list[str]) -> str:
    """The ids joined by commas, as many as fit in MAX_NAMED characters, then how many more."""
    named = ""
    for index, case_id in enumerate(ids):
        longer = f"{named}, {case_id}" if named else case_id
        if len(longer) > MAX_NAMED:
            return f"{named} and {len(ids) - index} more"
        named = longer
    return named


def _lock(suite: Suite) -> None:
    Suite.objects.select_for_update().filter(pk=suite.pk).first()


def _current(suite: Suite, pks: Sequence[int]) -> list[Case]:
    """The cases `pks` of `suite` as they are now, in the suite's order; others are ignored
    (someone may have deleted or moved them since the page was shown)."""
    return list(suite.cases.filter(pk__in=pks).order_by("position"))

"""Assignments and My queue: owners give cases to reviewers, each reviewer works through the
cases waiting for them (docs/user-guide.md, "Assignments and My queue").

A reviewer has reviewed an assigned case when they approved it or requested changes since it
took its present form (approvals.review_started): a case edited and submitted again waits for
them again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max, OuterRef, QuerySet, Value
from django.urls import reverse
from django.utils import timezone

from ...models import (
    Case,
    Membership,
    QueueVisit,
    ReviewAssignment,
    ReviewEvent,
    ReviewStatus,
    Revision,
    Suite,
)
from ..cases.bulk import BulkResult
from .approvals import EPOCH, RESTARTS, review_started
from .notifications import Kind, notify

Action = ReviewEvent.Action
REVIEWING_ROLES = (Membership.Role.OWNER, Membership.Role.REVIEWER)
# The queue page lists this many cases at most; its counts and Next cover them all.
QUEUE_PAGE = 200


class AssignmentError(ValueError):
    """An assignment that cannot be made, with the reason in words."""


def reviewers_of(workspace_id: int) -> list[User]:
    """The members who may review in the workspace (owners and reviewers), by username."""
    members = Membership.objects.filter(workspace_id=workspace_id, role__in=REVIEWING_ROLES)
    return [
        membership.user for membership in members.select_related("user").order_by("user__username")
    ]


def assign_cases(
    suite: Suite,
    pks: Sequence[int],
    reviewer_ids: Sequence[int],
    actor: User,
    *,
    spread: bool = False,
) -> BulkResult:
    """Assign the cases `pks` of `suite` to each of the reviewers, or with `spread` to one of
    them each, in turn, in the suite's order. A case already assigned to a reviewer stays so."""
    allowed = {reviewer.pk: reviewer for reviewer in reviewers_of(suite.workspace_id)}
    chosen = [allowed[pk] for pk in dict.fromkeys(reviewer_ids) if pk in allowed]
    if not chosen:
        raise AssignmentError("Choose one or more reviewers (owners and reviewers may review).")
    result = BulkResult()
    with transaction.atomic():
        cases = list(suite.cases.filter(pk__in=pks).order_by("position"))
        pairs = [
            (case, reviewer)
            for index, case in enumerate(cases)
            for reviewer in ([chosen[index % len(chosen)]] if spread else chosen)
        ]
        ReviewAssignment.objects.bulk_create(
            [ReviewAssignment(case=case, reviewer=who, assigned_by=actor) for case, who in pairs],
            ignore_conflicts=True,
        )
        result.done = [case.case_id for case in cases]
        _tell_reviewers(suite, pairs, actor)
    return result


def _tell_reviewers(suite: Suite, pairs: list[tuple[Case, User]], actor: User) -> None:
    """One notification per reviewer given cases: how many, in which suite."""
    given: dict[int, list[Case]] = {}
    people = {}
    for case, reviewer in pairs:
        given.setdefault(reviewer.pk, []).append(case)
        people[reviewer.pk] = reviewer
    for pk, cases in given.items():
        named = cases[0].case_id if len(cases) == 1 else f"{len(cases)} cases"
        text = f"{actor.username} assigned you {named} of {suite.path}"
        notify([people[pk]], Kind.ASSIGNMENT, suite.workspace, actor, text, reverse("my_queue"))


def unassign_cases(suite: Suite, pks: Sequence[int], reviewer_ids: Sequence[int]) -> BulkResult:
    """Take the cases `pks` of `suite` out of the reviewers' queues."""
    assignments = ReviewAssignment.objects.filter(
        case__suite=suite, case_id__in=pks, reviewer_id__in=reviewer_ids
    )
    ids = sorted(set(assignments.values_list("case__case_id", flat=True)))
    assignments.delete()
    return BulkResult(done=ids)


def _reviewed(user_id: int, cases: QuerySet[ReviewAssignment]) -> set[int]:
    """The ids of the cases of `cases` (assignments) that the user reviewed as they stand
    (three grouped queries, whatever the queue's length: a subquery per row would make the
    database look for each row's latest revision and restart apart)."""
    case_ids = cases.values("case_id")
    decided = _latest(
        ReviewEvent.objects.filter(
            case_id__in=case_ids,
            actor_id=user_id,
            action__in=[Action.APPROVED, Action.CHANGES_REQUESTED],
        )
    )
    changed = _latest(Revision.objects.filter(case_id__in=case_ids))
    restarted = _latest(ReviewEvent.objects.filter(case_id__in=case_ids, action__in=RESTARTS))
    return {
        case
        for case, at in decided.items()
        if at > max(changed.get(case, EPOCH), restarted.get(case, EPOCH))
    }


def _latest(rows: QuerySet[ReviewEvent] | QuerySet[Revision]) -> dict[int, datetime]:
    """The latest `created_at` of `rows` by case id."""
    latest = rows.order_by().values("case_id").annotate(at=Max("created_at"))
    return {row["case_id"]: row["at"] for row in latest}


def assignments_of(user: User) -> QuerySet[ReviewAssignment]:
    """The user's assignments in the workspaces they still review in, in queue order."""
    reviewing = Membership.objects.filter(user_id=user.pk, role__in=REVIEWING_ROLES)
    return ReviewAssignment.objects.filter(
        reviewer_id=user.pk, case__suite__workspace_id__in=reviewing.values("workspace_id")
    ).order_by("case__suite__workspace__name", "case__suite__path", "case__position")


@dataclass
class QueueItem:
    """One case of a reviewer's queue."""

    case: Case
    reviewed: bool
    waiting: bool
    new: bool


@dataclass
class Queue:
    """A reviewer's queue: the first cases, how far they came, and when they last looked."""

    items: list[QueueItem]
    total: int
    reviewed: int
    waiting: int
    last_seen: datetime | None

    @property
    def next_case(self) -> Case | None:
        """The first case waiting for the reviewer."""
        return next((item.case for item in self.items if item.waiting), None)


def my_queue(user: User, *, look: bool = True) -> Queue:
    """The user's queue (a fixed number of queries, whatever its length); with `look`, what is
    new is measured from their previous look and this look is remembered."""
    assignments = assignments_of(user)
    reviewed = _reviewed(user.pk, assignments)
    states = list(assignments.order_by().values_list("case_id", "case__status"))  # counts only
    waiting = {case for case, status in states if _waits(case, status, reviewed)}
    visit = QueueVisit.objects.filter(user_id=user.pk).first()
    last_seen = visit.seen_at if visit else None
    # Not the suites' texts as read: a suite file's megabytes would come once per row.
    suite_texts = [f"case__suite__{name}" for name in Suite.TEXTS]
    rows = assignments.select_related("case__suite__workspace").defer(*suite_texts)[:QUEUE_PAGE]
    items = [
        QueueItem(
            row.case,
            row.case_id in reviewed,
            row.case_id in waiting,
            last_seen is not None
            and (row.created_at > last_seen or row.case.updated_at > last_seen),
        )
        for row in rows
    ]
    if look:
        QueueVisit.objects.update_or_create(user=user, defaults={"seen_at": timezone.now()})
    return Queue(items, len(states), len(reviewed), len(waiting), last_seen)


def _waits(case: int, status: str, reviewed: set[int]) -> bool:
    """Whether an assigned case waits for its reviewer: in review, not reviewed by them yet."""
    return status == ReviewStatus.IN_REVIEW and case not in reviewed


def next_in_queue(user: User, after: int | None = None) -> Case | None:
    """The case waiting for the user that comes after case `after` in their queue (the first
    waiting one when none does, or `after` is not in it); None when nothing waits (five
    queries at most)."""
    assignments = assignments_of(user)
    reviewed = _reviewed(user.pk, assignments)
    queue = [
        (case, _waits(case, status, reviewed))
        for case, status in assignments.values_list("case_id", "case__status")
    ]
    start = next((index for index, (case, _) in enumerate(queue) if case == after), -1)
    later = queue[start + 1 :] + queue[: start + 1]
    chosen = next((case for case, waiting in later if waiting), None)
    if chosen is None:
        return None
    return Case.objects.select_related("suite__workspace").get(pk=chosen)


def assignment_panel(case: Case) -> tuple[list[str], list[str]]:
    """Who is assigned the case, and who of all its reviewers reviewed it as it stands, each
    by username (one query)."""
    assigned = ReviewAssignment.objects.filter(case=case).values_list(
        "reviewer__username", Value("assigned")
    )
    reviewed = (
        ReviewEvent.objects.filter(
            case=case,
            action__in=[Action.APPROVED, Action.CHANGES_REQUESTED],
            created_at__gt=review_started(OuterRef("case")),
        )
        .exclude(actor=None)
        .values_list("actor__username", Value("reviewed"))
    )
    rows = set(assigned.order_by().union(reviewed.order_by()))
    return (
        sorted(name for name, kind in rows if kind == "assigned"),
        sorted(name for name, kind in rows if kind == "reviewed"),
    )

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
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Value
from django.urls import reverse
from django.utils import timezone

from ...models import (
    Case,
    Membership,
    QueueVisit,
    ReviewAssignment,
    ReviewEvent,
    ReviewStatus,
    Suite,
)
from ...permissions import status_seen_across
from ..cases.bulk import BulkResult
from .approvals import review_started
from .notifications import Kind, notify

Action = ReviewEvent.Action
REVIEWING_ROLES = (Membership.Role.OWNER, Membership.Role.REVIEWER)
DECISIONS = (Action.APPROVED, Action.CHANGES_REQUESTED)
# My queue shows this many cases a page; its counts and Next cover the whole queue.
QUEUE_PAGE = 50
QUEUE_ORDER = ("case__suite__workspace__name", "case__suite__path", "case__position")
# What a queue's row shows of its case: not the case's document, nor the suite's texts.
SHOWN = (
    "created_at",
    "case",
    "case__suite",
    "case__suite__workspace",
    "case__case_id",
    "case__status",
    "case__position",
    "case__updated_at",
    "case__suite__path",
    "case__suite__workspace__name",
    "case__suite__workspace__slug",
)


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


def _reviewed_by(user_id: int) -> Exists:
    """Whether the user approved or requested changes on an assignment's case since it took
    its present form: a subquery of the assignment row, answered from the case's own events and
    revisions through their case index (for a page's rows, or until the first waiting one)."""
    return Exists(
        ReviewEvent.objects.filter(
            case=OuterRef("case"),
            actor_id=user_id,
            action__in=DECISIONS,
            created_at__gt=review_started(OuterRef("case")),
        )
    )


def _reviewing(user: User) -> QuerySet[Membership, Any]:
    """The ids of the workspaces the user reviews in (a subquery)."""
    memberships = Membership.objects.filter(user_id=user.pk, role__in=REVIEWING_ROLES)
    return memberships.values("workspace_id")


def assignments_of(user: User) -> QuerySet[ReviewAssignment]:
    """The user's assignments in the workspaces they still review in, in queue order, each
    with whether the user reviewed its case as it stands (`done`)."""
    return (
        ReviewAssignment.objects.filter(
            reviewer_id=user.pk, case__suite__workspace_id__in=_reviewing(user)
        )
        .alias(done=_reviewed_by(user.pk), shown_status=status_seen_across(user))
        .order_by(*QUEUE_ORDER)
    )


def _waiting(assignments: QuerySet[ReviewAssignment]) -> QuerySet[ReviewAssignment]:
    """The assignments whose case waits for its reviewer: in review (as they see it: blind
    review), not reviewed by them yet."""
    return assignments.filter(Q(shown_status=ReviewStatus.IN_REVIEW, done=False))


@dataclass
class QueueItem:
    """One case of a reviewer's queue."""

    case: Case
    status: str  # as the reviewer sees it (blind review)
    reviewed: bool
    waiting: bool
    new: bool


@dataclass
class Queue:
    """A page of a reviewer's queue: its cases, how far the whole queue came, the first case
    waiting in it, and when they last looked."""

    items: list[QueueItem]
    total: int
    reviewed: int
    waiting: int
    next_case: Case | None
    last_seen: datetime | None
    page: int
    pages: int
    first_place: int  # the place in the queue of the page's first case, from 1

    @property
    def last_place(self) -> int:
        """The place in the queue of the page's last case."""
        return self.first_place + len(self.items) - 1


def my_queue(
    user: User, page: int | None = None, *, per_page: int = QUEUE_PAGE, look: bool = True
) -> Queue:
    """Page `page` of the user's queue (the first when None, the last past it) with the whole
    queue's counts and first waiting case, in a fixed number of queries whatever its length
    (docs/performance.md). What is new is measured from their previous look; with `look`,
    opening the first page is remembered as a look, and the later pages of that look measure
    from where its first page did."""
    assignments = assignments_of(user)
    total, reviewed, waiting = _counts(user, assignments)
    pages = max(1, -(-total // per_page))
    page = min(max(page or 1, 1), pages)
    visit = QueueVisit.objects.filter(user_id=user.pk).first()
    last_seen = None
    if visit is not None:
        last_seen = visit.seen_at if page == 1 else visit.previous_seen_at
    # The page's rows chosen first (a narrow sort), so only they are looked up and read.
    shown = assignments.values("pk")[(page - 1) * per_page : page * per_page]
    items = [queue_item(row, last_seen) for row in queue_rows(user).filter(pk__in=shown)]
    if look and page == 1:
        QueueVisit.objects.update_or_create(
            user=user, defaults={"seen_at": timezone.now(), "previous_seen_at": last_seen}
        )
    first_place = (page - 1) * per_page + 1
    next_case = next_in_queue(user)
    return Queue(items, total, reviewed, waiting, next_case, last_seen, page, pages, first_place)


def queue_rows(user: User) -> QuerySet[ReviewAssignment]:
    """The user's assignments as their queue shows them, in its order: each with `reviewed`
    and `status` (their case's, as the user sees it), its case, suite and workspace read."""
    return (
        assignments_of(user)
        .annotate(reviewed=F("done"), status=F("shown_status"))
        .select_related("case__suite__workspace")
        .only(*SHOWN)
    )


def queue_item(row: Any, last_seen: datetime | None = None) -> QueueItem:
    """One of queue_rows as a QueueItem (new: changed or assigned after `last_seen`)."""
    return QueueItem(
        row.case,
        row.status,
        row.reviewed,
        row.status == ReviewStatus.IN_REVIEW and not row.reviewed,
        last_seen is not None and last_seen < max(row.created_at, row.case.updated_at),
    )


def queue_progress(user: User) -> tuple[int, int, int]:
    """How many cases the user's queue holds, how many of them they reviewed, how many wait."""
    return _counts(user, assignments_of(user))


def _counts(user: User, assignments: QuerySet[ReviewAssignment]) -> tuple[int, int, int]:
    """How many `assignments` (the user's, from assignments_of), how many of them the user
    reviewed, and how many wait (two queries grouped by status). The reviewed ones are found
    from the user's own decisions on cases assigned to them, so the work grows with their
    decisions, and no assignment row looks up its case's review (a subquery per row)."""
    decided = ReviewEvent.objects.filter(
        actor_id=user.pk,
        action__in=DECISIONS,
        case__assignments__reviewer_id=user.pk,
        case__suite__workspace_id__in=_reviewing(user),
        created_at__gt=review_started(OuterRef("case")),
    )
    # The user decided the reviewed cases, so blind review hides none of their statuses.
    assigned = _by_status(assignments.order_by(), F("shown_status"), Count("*"))
    reviewed = _by_status(decided.order_by(), F("case__status"), Count("case", distinct=True))
    in_review = ReviewStatus.IN_REVIEW
    waiting = assigned.get(in_review, 0) - reviewed.get(in_review, 0)
    return sum(assigned.values()), sum(reviewed.values()), waiting


def _by_status(
    rows: QuerySet[ReviewAssignment] | QuerySet[ReviewEvent], status: F, count: Count
) -> dict[str, int]:
    """`count` of `rows` (assignments or review events) by their case's `status`."""
    counted = rows.values(status=status).annotate(count=count)
    return {row["status"]: row["count"] for row in counted}


def next_in_queue(user: User, after: int | None = None) -> Case | None:
    """The case waiting for the user that comes after case `after` in their queue (the first
    waiting one when none does, or `after` is not in it); None when nothing waits (three
    queries at most)."""
    waiting = _waiting(assignments_of(user)).select_related("case__suite__workspace")
    waiting = waiting.only(*SHOWN)
    place = None
    if after is not None:
        place = assignments_of(user).filter(case_id=after).values_list(*QUEUE_ORDER).first()
    chosen = (place and waiting.filter(_after(place)).first()) or waiting.first()
    return chosen.case if chosen else None


def _after(place: tuple[str, str, int]) -> Q:
    """The assignments that come after `place` (a row's QUEUE_ORDER values) in queue order."""
    name, path, position = place
    by_name, by_path, by_position = QUEUE_ORDER
    return (
        Q(**{f"{by_name}__gt": name})
        | Q(**{by_name: name, f"{by_path}__gt": path})
        | Q(**{by_name: name, by_path: path, f"{by_position}__gt": position})
    )


def assignment_panel(case: Case) -> tuple[list[str], list[str]]:
    """Who is assigned the case, and who of all its reviewers reviewed it as it stands, each
    by username (one query)."""
    assigned = ReviewAssignment.objects.filter(case=case).values_list(
        "reviewer__username", Value("assigned")
    )
    reviewed = (
        ReviewEvent.objects.filter(
            case=case,
            action__in=DECISIONS,
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

"""The review of a case: draft → in review → approved, or changes requested → in review.

Every move is recorded with who made it and when. Editing an approved case dismisses the
approval, as a new commit dismisses a stale approval on a pull request. Nobody approves a
change they made themselves.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Exists, Max, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from ...models import (
    Case,
    Membership,
    ReviewEvent,
    ReviewStatus,
    Revision,
    Workspace,
)

Action = ReviewEvent.Action

# Which statuses each action may start from, and where it leads.
TRANSITIONS: dict[str, tuple[frozenset[str], str]] = {
    Action.SUBMITTED: (
        frozenset({ReviewStatus.DRAFT, ReviewStatus.CHANGES_REQUESTED}),
        ReviewStatus.IN_REVIEW,
    ),
    Action.APPROVED: (frozenset({ReviewStatus.IN_REVIEW}), ReviewStatus.APPROVED),
    Action.CHANGES_REQUESTED: (
        frozenset({ReviewStatus.IN_REVIEW}),
        ReviewStatus.CHANGES_REQUESTED,
    ),
}


class ReviewError(Exception):
    """A review step that is not possible now, with the reason in words."""


def move(case: Case, actor: User, action: str, note: str = "") -> ReviewEvent:
    """Apply a review action (submit, approve, request changes) to `case`, recording it."""
    with transaction.atomic():
        current = Case.objects.select_for_update().get(pk=case.pk)
        allowed_from, to_status = TRANSITIONS[action]
        if current.status not in allowed_from:
            label = ReviewStatus(current.status).label.lower()
            raise ReviewError(f"{current.case_id} is {label}; it cannot be {Action(action).label}.")
        if action == Action.APPROVED and actor.pk in authors_of_pending_change(current):
            raise ReviewError(
                "You changed this case since its last approval: someone else approves it."
            )
        event = ReviewEvent.objects.create(
            case=current,
            actor=actor,
            action=action,
            from_status=current.status,
            to_status=to_status,
            note=note.strip(),
        )
        current.status = to_status
        current.save(update_fields=["status"])
        case.status = to_status
        return event


def dismiss_approval_on_edit(case: Case, actor: User | None) -> None:
    """After an edit: an approved case goes back to review, and the dismissal is recorded."""
    if case.status != ReviewStatus.APPROVED:
        return
    ReviewEvent.objects.create(
        case=case,
        actor=actor,
        action=Action.APPROVAL_DISMISSED,
        from_status=ReviewStatus.APPROVED,
        to_status=ReviewStatus.IN_REVIEW,
    )
    case.status = ReviewStatus.IN_REVIEW
    case.save(update_fields=["status"])


def authors_of_pending_change(case: Case) -> set[int]:
    """Ids of the users who saved the case since its last approval (or ever, if never)."""
    last_approval = case.review_events.filter(action=Action.APPROVED).aggregate(
        at=Max("created_at")
    )["at"]
    revisions = case.revisions.exclude(author=None)
    if last_approval is not None:
        revisions = revisions.filter(created_at__gt=last_approval)
    return set(revisions.values_list("author_id", flat=True))


def waiting_for_review(user: User) -> QuerySet[Case]:
    """Cases in review that `user` may approve: in their workspaces, not changed by them."""
    cases = Case.objects.filter(status=ReviewStatus.IN_REVIEW)
    if not getattr(user, "is_superuser", False):
        reviewing = Membership.objects.filter(
            user_id=user.pk, role__in=[Membership.Role.OWNER, Membership.Role.REVIEWER]
        ).values("workspace_id")
        cases = cases.filter(suite__workspace_id__in=reviewing)
    # Never approved: any change of the user's counts, so compare with the earliest time.
    last_approval = Coalesce(
        Subquery(
            ReviewEvent.objects.filter(case=OuterRef("pk"), action=Action.APPROVED)
            .order_by("-created_at")
            .values("created_at")[:1]
        ),
        Value(datetime(1970, 1, 1, tzinfo=UTC)),
    )
    own_change = Revision.objects.filter(
        case=OuterRef("pk"), author_id=user.pk, created_at__gt=OuterRef("last_approval")
    )
    return (
        cases.annotate(last_approval=last_approval)
        .exclude(Exists(own_change))
        .select_related("suite__workspace")
        .order_by("updated_at", "pk")
    )


def status_counts(workspace: Workspace) -> list[tuple[str, str, int]]:
    """(status, label, number of cases) for every review status, in workflow order (one query)."""
    counts = dict(
        Case.objects.filter(suite__workspace=workspace)
        .values("status")
        .annotate(n=Count("pk"))
        .values_list("status", "n")
    )
    return [(status.value, status.label, counts.get(status.value, 0)) for status in ReviewStatus]

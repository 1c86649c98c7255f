"""The review of a case: draft → in review → approved, or changes requested → in review.

Every move is recorded with who made it and when. Editing an approved case dismisses the
approval, as a new commit dismisses a stale approval on a pull request. Nobody approves a
change they made themselves. A case needs as many approvals from distinct reviewers as its
workspace requires (approvals.py); each approval or request for changes is a review that
carries the reviewer's answers to the workspace's review form.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Exists, Max, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from ...models import (
    Case,
    CaseReview,
    Membership,
    ReviewEvent,
    ReviewScore,
    ReviewStatus,
    Revision,
)
from ...permissions import (
    DECIDED_STATUSES,
    DECISIONS,
    WorkspaceAccess,
    blind_to_case,
    shown_status,
    status_seen_across,
    status_seen_by,
)
from .approvals import (
    authors_of_pending_change,
    counted_approvers,
    required_approvals,
    review_started,
)
from .notifications import tell_authors

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


OWN_CHANGE = "You changed this case since its last approval: someone else approves it."


class ReviewError(Exception):
    """A review step that is not possible now, with the reason in words."""


def move(
    case: Case,
    actor: User,
    action: str,
    note: str = "",
    answers: dict[int, str] | None = None,
) -> ReviewEvent:
    """Apply a review action (submit, approve, request changes) to `case`, recording it; an
    approval or a request for changes records the reviewer's `answers` (criterion id → value,
    as criteria.read_answers gives them) with it."""
    with transaction.atomic():
        current = Case.objects.select_for_update().get(pk=case.pk)
        allowed_from, to_status = TRANSITIONS[action]
        # Asked only where it matters: a decided status, which a blind reviewer sees in review.
        blind = current.status in DECIDED_STATUSES and blind_to_case(actor, current)
        if blind and action in DECISIONS:
            # Blind review: the reviewer sees the case in review, and reviews it so; their
            # review is recorded, and the status stays what the others' decisions made it.
            if action == Action.APPROVED and actor.pk in authors_of_pending_change(current):
                raise ReviewError(OWN_CHANGE)
            to_status = current.status
        elif current.status not in allowed_from:
            label = ReviewStatus(shown_status(current.status, blind)).label.lower()
            raise ReviewError(f"{current.case_id} is {label}; it cannot be {Action(action).label}.")
        elif action == Action.APPROVED:
            to_status = _after_approval(current, actor)
        event = ReviewEvent.objects.create(
            case=current,
            actor=actor,
            action=action,
            from_status=current.status,
            to_status=to_status,
            note=note.strip(),
        )
        if action in (Action.APPROVED, Action.CHANGES_REQUESTED):
            _record_review(current, actor, event, answers or {})
            tell_authors(current, event)
        current.status = to_status
        current.save(update_fields=["status"])
        case.status = to_status
        return event


def _after_approval(case: Case, actor: User) -> str:
    """The status an approval by `actor` leads to, or ReviewError if it cannot count."""
    pending = authors_of_pending_change(case)
    if actor.pk in pending:
        raise ReviewError(OWN_CHANGE)
    approvers = counted_approvers(case, pending)
    if actor.pk in approvers:
        raise ReviewError("You approved this case as it stands already: others approve it now.")
    enough = len(approvers) + 1 >= required_approvals(case)
    return ReviewStatus.APPROVED if enough else ReviewStatus.IN_REVIEW


def _record_review(case: Case, actor: User, event: ReviewEvent, answers: dict[int, str]) -> None:
    latest = case.revisions.aggregate(number=Max("number"))["number"] or 0
    review = CaseReview.objects.create(
        case=case, reviewer=actor, event=event, decision=event.action, revision=latest
    )
    ReviewScore.objects.bulk_create(
        ReviewScore(review=review, criterion_id=criterion, value=value)
        for criterion, value in answers.items()
    )


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


def waiting_for_review(user: User) -> QuerySet[Case]:
    """Cases in review that `user` may approve: in their workspaces, not changed by them (in
    review as they see it: blind review shows a case others decided in review)."""
    cases = Case.objects.alias(shown_status=status_seen_across(user, "pk"))
    cases = cases.filter(shown_status=ReviewStatus.IN_REVIEW)
    if not getattr(user, "is_superuser", False):
        reviewing = Membership.objects.filter(
            user_id=user.pk, role__in=[Membership.Role.OWNER, Membership.Role.REVIEWER]
        ).values("workspace_id")
        cases = cases.filter(suite__workspace_id__in=reviewing)
    # Never approved: any change of the user's counts, so compare with the earliest time.
    last_approval = Coalesce(
        Subquery(
            ReviewEvent.objects.filter(case=OuterRef("pk"), to_status=ReviewStatus.APPROVED)
            .order_by("-created_at")
            .values("created_at")[:1]
        ),
        Value(datetime(1970, 1, 1, tzinfo=UTC)),
    )
    own_change = Revision.objects.filter(
        case=OuterRef("pk"), author_id=user.pk, created_at__gt=OuterRef("last_approval")
    )
    # An approval of the case as it stands, waiting for others' (approvals.py).
    own_approval = ReviewEvent.objects.filter(
        case=OuterRef("pk"),
        actor_id=user.pk,
        action=Action.APPROVED,
        created_at__gt=OuterRef("review_started"),
    )
    return (
        cases.annotate(last_approval=last_approval, review_started=review_started(OuterRef("pk")))
        .exclude(Exists(own_change))
        .exclude(Exists(own_approval))
        .select_related("suite__workspace")
        .order_by("updated_at", "pk")
    )


def status_counts(access: WorkspaceAccess) -> list[tuple[str, str, int]]:
    """(status, label, number of cases) for every review status, in workflow order, as the
    user of `access` sees the statuses (blind review; one query)."""
    counts = dict(
        Case.objects.filter(suite__workspace=access.workspace)
        .annotate(shown_status=status_seen_by(access))
        .values("shown_status")
        .annotate(n=Count("*"))
        .values_list("shown_status", "n")
    )
    return [(status.value, status.label, counts.get(status.value, 0)) for status in ReviewStatus]

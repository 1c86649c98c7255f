"""Required approvals and blind review: a workspace's review rules, and which approvals of a
case count (docs/user-guide.md, "Required approvals").

A case counts as approved once enough distinct reviewers approved it as it stands now: only
approvals given since its last change and its last submission count, and none from someone who
changed it since it was last approved. The case's status says whether that is so, and only
the review workflow and `set_rules` move it there, so everything that keeps "approved cases
only" (exports, publishing) reads the status and nothing else.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import transaction
from django.db.models import OuterRef, Subquery, Value
from django.db.models.functions import Coalesce, Greatest

from ...models import Case, ReviewEvent, ReviewRules, ReviewStatus, Revision, Workspace

Action = ReviewEvent.Action
MAX_REQUIRED_APPROVALS = 10
# What starts a case's review over: approvals given before it no longer count.
RESTARTS = (Action.SUBMITTED, Action.CHANGES_REQUESTED, Action.APPROVAL_DISMISSED)
# Before any review: what "since the last approval" means for a case never approved.
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class RulesError(ValueError):
    """Review rules that cannot be saved, with the reason in words."""


def rules_of(workspace: Workspace) -> ReviewRules:
    """The workspace's review rules (the defaults, unsaved, when it never set any); read once
    per workspace object (Django keeps the answer, a missing row too, on the object)."""
    try:
        return workspace.review_rules
    except ReviewRules.DoesNotExist:
        return ReviewRules(workspace=workspace)


def set_rules(workspace: Workspace, required_approvals: int, blind: bool) -> int:
    """Save the workspace's rules; cases in review or approved then move to the status the new
    number of approvals gives them, each move recorded. Returns how many cases moved."""
    if not 1 <= required_approvals <= MAX_REQUIRED_APPROVALS:
        raise RulesError(f"Required approvals: a whole number from 1 to {MAX_REQUIRED_APPROVALS}.")
    with transaction.atomic():
        Workspace.objects.select_for_update().filter(pk=workspace.pk).first()
        rules = ReviewRules.objects.filter(workspace=workspace).first()
        rules = rules or ReviewRules(workspace=workspace)
        changed = rules.required_approvals != required_approvals
        rules.required_approvals = required_approvals
        rules.blind = blind
        rules.save()
        if not changed:
            return 0
        moved = 0
        reviewed = Case.objects.filter(
            suite__workspace=workspace, status__in=[ReviewStatus.IN_REVIEW, ReviewStatus.APPROVED]
        ).select_for_update()
        for case in reviewed:
            count = len(counted_approvers(case))
            status = (
                ReviewStatus.APPROVED if count >= required_approvals else ReviewStatus.IN_REVIEW
            )
            if status == case.status:
                continue
            ReviewEvent.objects.create(
                case=case,
                actor=None,
                action=Action.RULES_CHANGED,
                from_status=case.status,
                to_status=status,
                note=f"{required_approvals} approval(s) now required",
            )
            case.status = status
            case.save(update_fields=["status"])
            moved += 1
    return moved


def required_approvals(case: Case) -> int:
    """How many approvals the case's workspace requires (one query)."""
    rules = ReviewRules.objects.filter(workspace__suites__pk=case.suite_id)
    return rules.values_list("required_approvals", flat=True).first() or 1


def counted_approvers(case: Case, pending: set[int] | None = None) -> set[int]:
    """Ids of the reviewers whose approval of the case as it stands counts (two queries; one
    given `pending`, the authors_of_pending_change of the case)."""
    if pending is None:
        pending = authors_of_pending_change(case)
    approvals = case.review_events.filter(
        action=Action.APPROVED, created_at__gt=review_started(OuterRef("case"))
    ).exclude(actor=None)
    return set(approvals.values_list("actor_id", flat=True)) - pending


def authors_of_pending_change(case: Case) -> set[int]:
    """Ids of the users who saved the case since it was last approved (or ever, if never; one
    query)."""
    last_approval = ReviewEvent.objects.filter(
        case=OuterRef("case"), to_status=ReviewStatus.APPROVED
    ).order_by("-created_at")
    since = Coalesce(Subquery(last_approval.values("created_at")[:1]), Value(EPOCH))
    revisions = case.revisions.exclude(author=None).filter(created_at__gt=since)
    return set(revisions.values_list("author_id", flat=True))


def review_started(case: OuterRef) -> Greatest:
    """When the case `case` refers to took its present form: its last revision or the last
    restart of its review (the epoch when neither happened)."""
    changed = Revision.objects.filter(case=case).order_by("-created_at")
    restarted = ReviewEvent.objects.filter(case=case, action__in=RESTARTS).order_by("-created_at")
    return Greatest(
        Coalesce(Subquery(changed.values("created_at")[:1]), Value(EPOCH)),
        Coalesce(Subquery(restarted.values("created_at")[:1]), Value(EPOCH)),
    )

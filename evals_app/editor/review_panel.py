"""What the editor's review panel shows: status, review steps, threads by turn, neighbours."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Prefetch, Q

from ..eval_files.case_parts import split_case
from ..models import (
    Case,
    Comment,
    CommentThread,
    ReviewCriterion,
    ReviewEvent,
    ReviewStatus,
    Suggestion,
)
from ..permissions import WorkspaceAccess, blind_to, shown_status, steps_seen_by
from ..request_numbers import parse_number
from ..services.review.approvals import authors_of_pending_change, counted_approvers, rules_of
from ..services.review.assignments import assignment_panel
from ..services.review.criteria import review_form
from ..services.review.scores import CaseScores, scores_of_cases


@dataclass
class ReviewPanel:
    """The review state of one case as one user sees it."""

    status: str
    status_label: str
    events: list[ReviewEvent]
    threads: list[CommentThread]
    threads_by_anchor: dict[str, list[CommentThread]]
    anchors: list[tuple[str, str]]
    slot_anchors: list[str]
    can_submit: bool
    can_review: bool
    can_approve: bool
    approve_blocked: str
    can_comment: bool
    previous_case: Case | None = None
    next_case: Case | None = None
    # The review form, the approvals the case has and needs, and the reviews given (none
    # shown to a blind reviewer before they give theirs: `blind`).
    criteria: list[ReviewCriterion] = field(default_factory=list)
    approvals: int = 0
    required_approvals: int = 1
    reviews: list[CaseScores] = field(default_factory=list)
    blind: bool = False
    assigned: list[str] = field(default_factory=list)
    reviewed_by: list[str] = field(default_factory=list)
    open_threads: int = field(init=False)
    has_scale: bool = field(init=False)

    def __post_init__(self) -> None:
        self.open_threads = sum(not thread.is_resolved for thread in self.threads)
        self.has_scale = any(c.kind == ReviewCriterion.Kind.SCALE for c in self.criteria)


def review_context(
    access: WorkspaceAccess, case: Case, user: User, posted: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The review panel of `case` for `user` (a constant number of queries)."""
    comments = Prefetch("comments", queryset=Comment.objects.select_related("author"))
    threads = list(
        case.threads.select_related("created_by", "resolved_by").prefetch_related(comments)
    )
    by_anchor: dict[str, list[CommentThread]] = {}
    for thread in threads:
        by_anchor.setdefault(thread.anchor, []).append(thread)
    parts = split_case(case.document)
    # In the page's order: the turns, then the expected messages.
    turns = [
        (section, position, message["role"])
        for section, messages in (
            ("input", parts.input_messages),
            ("expected", parts.expected_messages),
        )
        for position, message in enumerate(messages)
    ]
    anchors = [("", "The whole case")] + [
        (f"{section}-{position}", _anchor_label(section, position, role))
        for section, position, role in turns
    ]
    # Blind review: before their own review, a reviewer sees the case in review whatever
    # others decided, reviews it as such, and sees none of the steps that tell a decision.
    blind = bool(blind_to(access, [case]))
    status = shown_status(case.status, blind)
    in_review = status == ReviewStatus.IN_REVIEW
    pending = authors_of_pending_change(case) if in_review else set()
    own_change = access.can_review and user.pk in pending
    previous_case, next_case = _neighbours(case)
    rules = rules_of(access.workspace)
    events = case.review_events.select_related("actor").order_by("-created_at", "-pk")
    panel = ReviewPanel(
        status=status,
        status_label=ReviewStatus(status).label,
        events=list(steps_seen_by(access, events)[:8]),
        threads=threads,
        threads_by_anchor=by_anchor,
        anchors=anchors,
        slot_anchors=_slot_anchors(posted, turns),
        can_submit=access.can_edit
        and status in (ReviewStatus.DRAFT, ReviewStatus.CHANGES_REQUESTED),
        can_review=access.can_review and in_review,
        can_approve=access.can_review and in_review and not own_change,
        approve_blocked="You changed this case since its last approval." if own_change else "",
        can_comment=access.can_comment,
        previous_case=previous_case,
        next_case=next_case,
        criteria=review_form(access.workspace) if access.can_review else [],
        approvals=0 if blind or not in_review else len(counted_approvers(case, pending)),
        required_approvals=rules.required_approvals,
        reviews=[] if blind else scores_of_cases([case]).get(case.pk, []),
        blind=blind,
    )
    panel.assigned, reviewed_by = assignment_panel(case)
    panel.reviewed_by = [] if blind else reviewed_by
    # One query for the open suggestions and those that answer comments (shown in their
    # threads); neither list shows what they change.
    suggestions = case.suggestions.filter(Q(state=Suggestion.State.OPEN) | Q(answers__isnull=False))
    answers_by_comment: dict[int, list[Suggestion]] = {}
    shown = list(suggestions.select_related("author").defer("base", "document"))
    for suggestion in shown:
        if suggestion.answers_id is not None:
            answers_by_comment.setdefault(suggestion.answers_id, []).append(suggestion)
    return {
        "workspace": access.workspace,
        "suite": case.suite,
        "case": case,
        "access": access,
        "review": panel,
        "suggestions": [suggestion for suggestion in shown if suggestion.is_open],
        "answers_by_comment": answers_by_comment,
    }


def _anchor_label(section: str, position: int, role: str) -> str:
    kind = "Expected message" if section == "expected" else "Turn"
    return f"{kind} {position + 1} ({role})"


def _slot_anchors(posted: Mapping[str, str] | None, turns: list[tuple[str, int, str]]) -> list[str]:
    """The turns the page shows now: the editor's (maybe unsaved) counts, else the stored ones."""
    counts = {"input": 0, "expected": 0}
    for section in counts:
        posted_count = parse_number((posted or {}).get(f"{section}-count"))
        if posted_count is not None:
            counts[section] = min(posted_count, 1000)
        else:
            counts[section] = sum(1 for s, _, _ in turns if s == section)
    return [f"{section}-{index}" for section, count in counts.items() for index in range(count)]


def _neighbours(case: Case) -> tuple[Case | None, Case | None]:
    """The cases before and after `case` in its suite (positions have gaps: two queries, each
    one step along the index)."""
    siblings = Case.objects.filter(suite_id=case.suite_id).only(
        "pk", "case_id", "position", "suite_id"
    )
    before = siblings.filter(position__lt=case.position).order_by("-position").first()
    after = siblings.filter(position__gt=case.position).order_by("position").first()
    return before, after

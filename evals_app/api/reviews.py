"""`POST …/case/review`: submit a case for review, approve it, or request changes (with the
review form's answers); `GET …/case/reviews`: the reviews of a case (blind review holds)."""

from __future__ import annotations

from typing import Any, Literal

from django.http import HttpRequest
from ninja import Query, Router, Schema, Status

from ..models import ReviewStatus
from ..permissions import REVIEW_STEPS, Capability, blind_to
from ..services.review.approvals import rules_of
from ..services.review.criteria import CriterionError, read_answers, review_form
from ..services.review.scores import scores_of_cases
from ..services.review.workflow import ReviewError, move
from .auth import api_user
from .cases import CaseAddress
from .errors import WORKSPACE_ERRORS, Message
from .lookups import case_at

router = Router(tags=["review"])


class ReviewStep(Schema):
    """A review step and an optional note, recorded with it; an approval or a request for
    changes may answer the workspace's review form: `scores` by criterion name (`pass`/`fail`,
    `1`-`5`, a label, or text)."""

    action: Literal["submit", "approve", "request_changes"]
    note: str = ""
    scores: dict[str, str] = {}


class Reviewed(Schema):
    """The case's review status after the step."""

    status: ReviewStatus


@router.post(
    "/workspaces/{slug}/case/review",
    response={200: Reviewed, 409: Message, 422: Message, **WORKSPACE_ERRORS},
)
def review_case(
    request: HttpRequest, slug: str, address: Query[CaseAddress], step: ReviewStep
) -> Any:
    """Take a review step. Submitting needs the editor role, approving and requesting changes
    the reviewer role; the review rules hold (nobody approves a case they changed)."""
    action, needs = REVIEW_STEPS[step.action]
    access, case = case_at(request, slug, address.suite, address.id, needs)
    criteria = review_form(access.workspace) if step.action != "submit" else []
    by_name = {criterion.name: criterion for criterion in criteria}
    unknown = sorted(set(step.scores) - set(by_name))
    if unknown:
        return Status(422, Message(message=f"No review criterion named {', '.join(unknown)}."))
    posted = {f"score-{by_name[name].pk}": value for name, value in step.scores.items()}
    try:
        answers = read_answers(criteria, posted)
        move(case, api_user(request), action, step.note, answers)
    except CriterionError as refusal:
        return Status(422, Message(message=str(refusal)))
    except ReviewError as refusal:
        return Status(409, Message(message=str(refusal)))
    return Reviewed(status=ReviewStatus(case.status))


class ReviewOut(Schema):
    """A reviewer's latest review of the case: their decision (`approved` or
    `changes_requested`) and answers by criterion name."""

    reviewer: str | None
    decision: str
    scores: dict[str, str]


class CaseReviews(Schema):
    """The case's reviews; `hidden` when blind review keeps them from the caller until they
    review the case themselves."""

    approvals_required: int
    hidden: bool
    reviews: list[ReviewOut]


@router.get("/workspaces/{slug}/case/reviews", response={200: CaseReviews, **WORKSPACE_ERRORS})
def case_reviews(request: HttpRequest, slug: str, address: Query[CaseAddress]) -> Any:
    """Each reviewer's latest review of the case, with their answers to the review form."""
    access, case = case_at(request, slug, address.suite, address.id, Capability.VIEW)
    hidden = bool(blind_to(access, [case]))
    given = [] if hidden else scores_of_cases([case]).get(case.pk, [])
    return CaseReviews(
        approvals_required=rules_of(access.workspace).required_approvals,
        hidden=hidden,
        reviews=[
            ReviewOut(reviewer=item.reviewer, decision=item.action, scores=dict(item.answers))
            for item in given
        ],
    )

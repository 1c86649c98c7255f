"""`POST …/case/review`: submit a case for review, approve it, or request changes."""

from __future__ import annotations

from typing import Any, Literal

from django.http import HttpRequest
from ninja import Query, Router, Schema, Status

from ..models import ReviewStatus
from ..permissions import REVIEW_STEPS
from ..services.review.workflow import ReviewError, move
from .auth import api_user
from .cases import CaseAddress
from .errors import WORKSPACE_ERRORS, Message
from .lookups import case_at

router = Router(tags=["review"])


class ReviewStep(Schema):
    """A review step and an optional note, recorded with it."""

    action: Literal["submit", "approve", "request_changes"]
    note: str = ""


class Reviewed(Schema):
    """The case's review status after the step."""

    status: ReviewStatus


@router.post(
    "/workspaces/{slug}/case/review",
    response={200: Reviewed, 409: Message, **WORKSPACE_ERRORS},
)
def review_case(
    request: HttpRequest, slug: str, address: Query[CaseAddress], step: ReviewStep
) -> Any:
    """Take a review step. Submitting needs the editor role, approving and requesting changes
    the reviewer role; the review rules hold (nobody approves a case they changed)."""
    action, needs = REVIEW_STEPS[step.action]
    _, case = case_at(request, slug, address.suite, address.id, needs)
    try:
        move(case, api_user(request), action, step.note)
    except ReviewError as refusal:
        return Status(409, Message(message=str(refusal)))
    return Reviewed(status=ReviewStatus(case.status))

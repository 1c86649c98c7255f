"""A case's past: its revisions and its review steps, a page at a time (docs/api.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import HttpRequest
from ninja import Query, Router, Schema, Status

from ..eval_files.json_keys import KeyCollision, with_string_keys
from ..models import ReviewEvent, ReviewStatus, Revision
from ..permissions import Capability, blind_to, shown_status, steps_seen_by
from .cases import CaseAddress
from .cursors import BadCursor
from .errors import WORKSPACE_ERRORS, Message
from .lookups import case_at
from .pages import Page, PageQuery, page_of

router = Router(tags=["history"])


class RevisionOut(Schema):
    """A saved state of the case: its number, who saved it (null: an import) and when, what
    the save was (`edited`, `restored`, `as imported`, …) and the whole case then (null for
    a case that cannot be read as JSON: a mapping with both `0` and `"0"` as keys)."""

    number: int
    author: str | None
    created_at: datetime
    summary: str
    document: dict[str, Any] | None


class ReviewStepOut(Schema):
    """A review step: who took it, when, from what status to what, and its note."""

    action: ReviewEvent.Action
    actor: str | None
    created_at: datetime
    from_status: ReviewStatus
    to_status: ReviewStatus
    note: str


@router.get(
    "/workspaces/{slug}/case/revisions",
    response={200: Page[RevisionOut], **WORKSPACE_ERRORS},
)
def list_revisions(
    request: HttpRequest, slug: str, address: Query[CaseAddress], page: Query[PageQuery]
) -> Any:
    """The case's revisions, newest first. A document's keys come as the file holds them,
    JSON keys being strings (docs/api.md)."""
    _, case = case_at(request, slug, address.suite, address.id, Capability.VIEW)
    revisions = Revision.objects.filter(case=case).select_related("author")
    try:
        rows, total, following = page_of(
            revisions, ("number",), lambda r: (r.number,), (int,), page, descending=True
        )
    except BadCursor as error:
        return Status(400, Message(message=str(error)))
    items = [
        RevisionOut(
            number=r.number,
            author=r.author.username if r.author else None,
            created_at=r.created_at,
            summary=r.summary,
            document=_as_json(r.snapshot),
        )
        for r in rows
    ]
    return Page[RevisionOut](items=items, total=total, next=following)


@router.get(
    "/workspaces/{slug}/case/review-steps",
    response={200: Page[ReviewStepOut], **WORKSPACE_ERRORS},
)
def list_review_steps(
    request: HttpRequest, slug: str, address: Query[CaseAddress], page: Query[PageQuery]
) -> Any:
    """The case's review steps, oldest first; a blind reviewer gets none that tells others'
    decisions until they gave their own (docs/user-guide.md, "Blind review")."""
    access, case = case_at(request, slug, address.suite, address.id, Capability.VIEW)
    steps = ReviewEvent.objects.filter(case=case).select_related("actor")
    seen = steps_seen_by(access, steps)
    blind = bool(blind_to(access, [case]))  # then the statuses steps left are hidden too
    try:
        rows, total, following = page_of(seen, ("pk",), lambda e: (e.pk,), (int,), page)
    except BadCursor as error:
        return Status(400, Message(message=str(error)))
    items = [
        ReviewStepOut(
            action=ReviewEvent.Action(e.action),
            actor=e.actor.username if e.actor else None,
            created_at=e.created_at,
            from_status=ReviewStatus(shown_status(e.from_status, blind)),
            to_status=ReviewStatus(shown_status(e.to_status, blind)),
            note=e.note,
        )
        for e in rows
    ]
    return Page[ReviewStepOut](items=items, total=total, next=following)


def _as_json(document: dict[str, Any]) -> dict[str, Any] | None:
    try:
        return with_string_keys(document)
    except KeyCollision:
        return None

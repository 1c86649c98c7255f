"""Suggested edits through the API (docs/api.md): read a case's suggestions, suggest a new
document for a case (whoever may comment), apply or dismiss one (editors), with the pages'
rules: a stale suggestion is refused."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import Http404, HttpRequest
from ninja import Query, Router, Schema, Status

from ..eval_files.errors import EvalFileError
from ..eval_files.json_keys import KeyCollision, with_keys_typed_as, with_string_keys
from ..models import Case, Suggestion
from ..permissions import Capability, WorkspaceAccess
from ..services.review.suggestions import (
    SuggestionConflict,
    SuggestionError,
    apply_suggestion,
    dismiss_suggestion,
    is_stale,
    suggest,
)
from .auth import api_user
from .cases import CaseAddress, Saved
from .cursors import BadCursor
from .errors import WORKSPACE_ERRORS, InvalidDocument, Message, invalid_document
from .lookups import access_to, case_at
from .pages import Page, PageQuery, page_of

router = Router(tags=["review"])


class SuggestionIn(Schema):
    """A new document for the case, suggested on the case at `version` (as read), with an
    optional note (`@username` tells that member)."""

    version: int
    document: dict[str, Any]
    note: str = ""


class SuggestionOut(Schema):
    """A suggestion: `state` is `open`, `applied` or `dismissed`; `stale` when the case
    changed since it was made (it cannot be applied); `revision` is the case's revision that
    applied it; `base` is the case as it was when it was made."""

    pk: int
    suite: str
    case: str
    author: str | None
    note: str
    state: str
    stale: bool
    base_version: int
    base: dict[str, Any]
    document: dict[str, Any]
    created_at: datetime
    resolved_by: str | None
    reply: str
    revision: int | None


class Dismissal(Schema):
    """Why the suggestion is dismissed (told to its author)."""

    reply: str


@router.get(
    "/workspaces/{slug}/case/suggestions",
    response={200: Page[SuggestionOut], 422: Message, **WORKSPACE_ERRORS},
)
def case_suggestions(
    request: HttpRequest, slug: str, address: Query[CaseAddress], page: Query[PageQuery]
) -> Any:
    """The case's suggestions, oldest first, a page at a time (docs/api.md)."""
    _, case = case_at(request, slug, address.suite, address.id, Capability.VIEW)
    found = case.suggestions.select_related("author", "resolved_by", "revision")
    try:
        rows, total, following = page_of(found, ("pk",), lambda s: (s.pk,), (int,), page)
        items = [_out(suggestion, case) for suggestion in rows]
    except BadCursor as error:
        return Status(400, Message(message=str(error)))
    except KeyCollision as collision:
        return Status(422, Message(message=str(collision)))
    return Page[SuggestionOut](items=items, total=total, next=following)


@router.post(
    "/workspaces/{slug}/case/suggestions",
    response={201: SuggestionOut, 409: Message, 422: InvalidDocument, **WORKSPACE_ERRORS},
)
def suggest_change(
    request: HttpRequest, slug: str, address: Query[CaseAddress], proposal: SuggestionIn
) -> Any:
    """Suggest a new document for the case (reviewers, editors and owners). Refused (409)
    when the case is no longer at `version`; 422 when the document is not a valid case or
    changes nothing."""
    _, case = case_at(request, slug, address.suite, address.id, Capability.COMMENT)
    document = with_keys_typed_as(proposal.document, case.document)
    try:
        made = suggest(case, api_user(request), document, proposal.version, proposal.note)
    except EvalFileError as error:
        return Status(422, invalid_document(error.located(case.suite.path)))
    except SuggestionConflict as conflict:
        return Status(409, Message(message=str(conflict)))
    except SuggestionError as refusal:
        return Status(422, invalid_document(EvalFileError(str(refusal))))
    case.refresh_from_db()
    return Status(201, _out(made, case))


@router.post(
    "/workspaces/{slug}/suggestions/{pk}/apply",
    response={200: Saved, 409: Message, 422: Message, **WORKSPACE_ERRORS},
)
def apply(request: HttpRequest, slug: str, pk: int) -> Any:
    """Apply an open suggestion: a new revision of the case (editors and owners). Refused (409)
    when the case changed since the suggestion was made, or it is no longer open."""
    suggestion = _suggestion(access_to(request, slug, Capability.EDIT), pk)
    try:
        saved = apply_suggestion(suggestion, api_user(request))
    except SuggestionError as refusal:
        return Status(409, Message(message=str(refusal)))
    except EvalFileError as error:
        return Status(422, Message(message=str(error)))
    return Saved(version=saved.version, id=saved.case_id)


@router.post(
    "/workspaces/{slug}/suggestions/{pk}/dismiss",
    response={200: SuggestionOut, 409: Message, 422: Message, **WORKSPACE_ERRORS},
)
def dismiss(request: HttpRequest, slug: str, pk: int, dismissal: Dismissal) -> Any:
    """Dismiss an open suggestion with a reply (editors and owners)."""
    suggestion = _suggestion(access_to(request, slug, Capability.EDIT), pk)
    if not dismissal.reply.strip():
        return Status(422, Message(message="Say why: the reply is empty."))
    try:
        dismissed = dismiss_suggestion(suggestion, api_user(request), dismissal.reply)
    except SuggestionError as refusal:
        return Status(409, Message(message=str(refusal)))
    found = Suggestion.objects.select_related("author", "resolved_by", "revision")
    return _out(found.get(pk=dismissed.pk), dismissed.case)


def _suggestion(access: WorkspaceAccess, pk: int) -> Suggestion:
    found = Suggestion.objects.select_related("case__suite").filter(
        pk=pk, case__suite__workspace=access.workspace
    )
    suggestion = found.first()
    if suggestion is None:
        raise Http404(f"No suggestion {pk} in {access.workspace.name}.")
    return suggestion


def _out(suggestion: Suggestion, case: Case) -> SuggestionOut:
    return SuggestionOut(
        pk=suggestion.pk,
        suite=case.suite.path,
        case=case.case_id,
        author=suggestion.author.username if suggestion.author else None,
        note=suggestion.note,
        state=suggestion.state,
        stale=suggestion.is_open and is_stale(suggestion, case.document),
        base_version=suggestion.base_version,
        base=with_string_keys(suggestion.base),
        document=with_string_keys(suggestion.document),
        created_at=suggestion.created_at,
        resolved_by=suggestion.resolved_by.username if suggestion.resolved_by else None,
        reply=suggestion.reply,
        revision=suggestion.revision.number if suggestion.revision else None,
    )

"""Reviewing a case: review steps, comment threads, the review queue and a workspace's activity."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from ..api.cursors import BadCursor, decode_cursor, encode_cursor
from ..editor.review_panel import review_context
from ..models import Case, CommentThread
from ..permissions import (
    REVIEW_STEPS,
    Capability,
    WorkspaceAccess,
    signed_in_user,
    workspace_access,
)
from ..request_numbers import parse_number
from ..services.review.comments import CommentError, reopen, reply, resolve, start_thread
from ..services.review.criteria import CriterionError, read_answers, review_form
from ..services.review.notifications import mention_reach
from ..services.review.workflow import ReviewError, move, waiting_for_review
from ..services.workspaces.activity import ActivityKey, workspace_activity
from .htmx_request import HtmxHttpRequest
from .lookups import case_or_404

EDITOR = "evals/case_editor.html"
ACTIVITY_PER_PAGE = 50


@require_POST
def case_review(request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int) -> HttpResponse:
    """Submit the case for review, approve it, or request changes (`step`, optional `note`)."""
    step = request.POST.get("step", "")
    if step not in REVIEW_STEPS:
        return HttpResponse("Unknown review step.", status=400)
    action, needs = REVIEW_STEPS[step]
    access, case = case_or_404(request, slug, suite_pk, case_pk, needs)
    criteria = review_form(access.workspace) if step != "submit" else []
    try:
        answers = read_answers(criteria, request.POST)
        note = request.POST.get("note", "")
        event = move(case, signed_in_user(request), action, note, answers)
    except (ReviewError, CriterionError) as error:
        posted = {criterion.pk: request.POST.get(f"score-{criterion.pk}") for criterion in criteria}
        return _review_response(request, access, case, error=str(error), answers=posted)
    messages.success(request, f"{case.case_id}: {event.get_action_display()}.")
    return _review_response(request, access, case)


@require_POST
def thread_create(request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int) -> HttpResponse:
    """Start a comment thread on the case or on one turn (`anchor` like `input-2`)."""
    access, case = case_or_404(request, slug, suite_pk, case_pk, Capability.COMMENT)
    section, _, turn = request.POST.get("anchor", "").partition("-")
    text = request.POST.get("text", "")
    try:
        start_thread(case, signed_in_user(request), text, section=section, turn=parse_number(turn))
    except CommentError as error:
        return _review_response(request, access, case, error=str(error), draft_comment=True)
    return _review_response(request, access, case, mentions=_reach(access, request, text))


@require_POST
def thread_reply(
    request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int, thread_pk: int
) -> HttpResponse:
    """Reply in a thread (`text`), or resolve or reopen it (`step`)."""
    access, case = case_or_404(request, slug, suite_pk, case_pk, Capability.COMMENT)
    thread = get_object_or_404(CommentThread, case=case, pk=thread_pk)
    step = request.POST.get("step", "reply")
    try:
        if step == "resolve":
            resolve(thread, signed_in_user(request))
        elif step == "reopen":
            reopen(thread)
        else:
            text = request.POST.get("text", "")
            reply(thread, signed_in_user(request), text)
            return _review_response(request, access, case, mentions=_reach(access, request, text))
    except CommentError as error:
        return _review_response(request, access, case, error=str(error))
    return _review_response(request, access, case)


def _reach(access: WorkspaceAccess, request: HtmxHttpRequest, text: str) -> list[str]:
    """What the comment's mentions reached, in words (docs/user-guide.md, "Mentions")."""
    return mention_reach(access.workspace.pk, text, signed_in_user(request)).said()


def _review_response(
    request: HtmxHttpRequest, access: WorkspaceAccess, case: Case, **extra: Any
) -> HttpResponse:
    """htmx: the review panel (and the turns' thread slots); otherwise back to the editor."""
    status = 422 if extra.get("error") else 200
    if request.htmx:
        context = review_context(access, case, signed_in_user(request), request.POST)
        context.update(extra)
        return render(request, f"{EDITOR}#review-panel", context, status=status)
    if extra.get("error"):
        messages.error(request, extra["error"])
    for sentence in extra.get("mentions", []):
        messages.info(request, sentence)
    url = reverse("case_editor", args=[access.workspace.slug, case.suite.pk, case.pk])
    return redirect(f"{url}#review")


@require_GET
def review_queue(request: HtmxHttpRequest) -> HttpResponse:
    """Cases waiting for my review across my workspaces, oldest change first."""
    cases = list(waiting_for_review(signed_in_user(request))[:200])
    return render(request, "evals/review_queue.html", {"cases": cases})


@require_GET
def activity(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Who changed, commented on or reviewed what in a workspace, newest first."""
    access = workspace_access(request.user, slug)
    page = workspace_activity(access, ACTIVITY_PER_PAGE, _activity_key(request))
    context = {
        "workspace": access.workspace,
        "access": access,
        "items": page.items,
        "older": _activity_cursor(page.older) if page.older else "",
        "paged": "before" in request.GET,
    }
    return render(request, "evals/activity.html", context)


def _activity_key(request: HtmxHttpRequest) -> ActivityKey | None:
    """Where the page asked for starts (`before`, from an "Older" link); None: the newest."""
    cursor = request.GET.get("before")
    if not cursor:
        return None
    try:
        at, rank, pk = decode_cursor(cursor, (str, int, int))
        moment = datetime.fromisoformat(at)
    except (BadCursor, ValueError):
        return None  # a link mangled by hand: the newest page, as if none was sent
    return (moment, rank, pk) if moment.tzinfo is not None else None


def _activity_cursor(key: ActivityKey) -> str:
    at, rank, pk = key
    return encode_cursor((at.isoformat(), rank, pk))

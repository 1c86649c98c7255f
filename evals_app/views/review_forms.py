"""The owners' review settings: required approvals, blind review and the review form's
criteria (on the workspace's settings page; docs/user-guide.md, "Review forms and scores")."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from ..models import ReviewCriterion
from ..permissions import Capability, workspace_access
from ..request_numbers import parse_number
from ..services.review.approvals import RulesError, set_rules
from ..services.review.criteria import (
    CriterionError,
    add_criterion,
    change_criterion,
    delete_criterion,
)
from .htmx_request import HtmxHttpRequest


@require_POST
def review_rules(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Set the approvals a case needs and whether reviewers review blind."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    required = parse_number(request.POST.get("required_approvals"))
    try:
        moved = set_rules(access.workspace, required or 0, blind=request.POST.get("blind") == "on")
    except RulesError as error:
        messages.error(request, str(error))
    else:
        done = "Saved the review rules."
        if moved:
            done += f" {moved} case{'s' if moved != 1 else ''} changed status."
        messages.success(request, done)
    return _back(slug)


@require_POST
def criterion_add(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Add a criterion at the end of the review form."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    posted = request.POST
    try:
        criterion = add_criterion(
            access.workspace,
            posted.get("name", ""),
            posted.get("kind", ""),
            posted.get("help_text", ""),
            posted.get("labels", ""),
        )
    except CriterionError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"Added {criterion.name} to the review form.")
    return _back(slug)


@require_POST
def criterion_change(request: HtmxHttpRequest, slug: str, criterion_pk: int) -> HttpResponse:
    """Rename a criterion, change its help text or labels, or remove it (`delete`)."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    criterion = get_object_or_404(ReviewCriterion, workspace=access.workspace, pk=criterion_pk)
    if request.POST.get("delete") == "yes":
        delete_criterion(criterion)
        messages.success(request, f"Removed {criterion.name} and its answers.")
        return _back(slug)
    posted = request.POST
    try:
        change_criterion(
            criterion,
            posted.get("name", ""),
            posted.get("help_text", ""),
            posted.get("labels", ""),
        )
    except CriterionError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"Saved {criterion.name}.")
    return _back(slug)


def _back(slug: str) -> HttpResponse:
    return redirect(reverse("workspace_settings", args=[slug]) + "#review-settings")

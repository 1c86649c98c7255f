"""Suite pages: a suite's cases in order, searched, added, duplicated, deleted and reordered."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import push_url

from ..eval_files.errors import EvalFileError
from ..forms import CaseForm, CaseListForm
from ..models import Case, Suite
from ..permissions import (
    Capability,
    WorkspaceAccess,
    blind_to,
    reviews_blind,
    signed_in_user,
    status_seen_by,
    workspace_access,
)
from ..services.cases.list_changes import (
    Direction,
    add_case,
    delete_case,
    duplicate_case,
    move_case,
)
from ..services.cases.summaries import pending_summaries
from ..services.cases.trash import trash_days
from ..services.cases.work_list import places_on_page
from ..services.profiles import profile_of
from ..services.repository.conflicts import open_conflicts
from ..services.review.assignments import reviewers_of
from ..services.review.criteria import review_form
from ..services.review.scores import score_filter_choices, scores_of_cases
from ..services.suites.eval_files import case_file_references, page_of_cases, summarize_cases
from .fragments import render_page
from .htmx_request import HtmxHttpRequest
from .runs import suite_run_context

SUITE_PAGE = "evals/suite_detail.html"
CASES_PER_PAGE = 50


@require_GET
@vary_on_headers("HX-Request")
def suite_detail(request: HtmxHttpRequest, slug: str, suite_pk: int) -> HttpResponse:
    """The suite's cases, searched, filtered and sorted as the query string says (see
    CaseListForm); htmx gets only the table of cases."""
    access = workspace_access(request.user, slug)
    suite = get_object_or_404(access.workspace.suites, pk=suite_pk)
    list_form = CaseListForm(request.GET)
    page = request.GET.get("page")
    context = suite_context(access, suite, list_form, page=page)
    response = render_page(request, SUITE_PAGE, context, partial="cases")
    if request.htmx and not request.htmx.history_restore_request:
        # The address bar gets the list's URL without the form's empty fields, to share.
        parameters = context["listing"].parameters() | ({"page": page} if page else {})
        url = request.path + (f"?{urlencode(parameters)}" if parameters else "")
        push_url(response, url)
    return response


@require_POST
def case_create(request: HtmxHttpRequest, slug: str, suite_pk: int) -> HttpResponse:
    """Add a case with the given id and one empty user turn, then open it in the editor (the
    same case again when the form is sent twice, as a double-click does)."""
    access = workspace_access(request.user, slug, Capability.EDIT)
    workspace = access.workspace
    suite = get_object_or_404(workspace.suites, pk=suite_pk)
    form = CaseForm(request.POST)
    if form.is_valid():
        try:
            case, _ = add_case(suite, form.cleaned_data["case_id"], signed_in_user(request))
        except EvalFileError as error:
            form.add_error("case_id", error.message)
        else:
            messages.success(request, f"Added {case.case_id}.")
            return redirect("case_editor", workspace.slug, suite.pk, case.pk)
    context = suite_context(access, suite, CaseListForm(), case_form=form)
    return render(request, SUITE_PAGE, context, status=422)


@require_POST
@vary_on_headers("HX-Request")
def case_duplicate(
    request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int
) -> HttpResponse:
    """Copy a case, placing the copy right after it."""
    access, case = _get_case(request, slug, suite_pk, case_pk)
    try:
        copy = duplicate_case(case, signed_in_user(request))
    except EvalFileError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"Duplicated {case.case_id} as {copy.case_id}.")
    return cases_changed(request, access, case.suite)


@require_POST
@vary_on_headers("HX-Request")
def case_delete(request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int) -> HttpResponse:
    """Delete a case into the workspace's Deleted list (the form asks for confirmation
    first); the message offers Undo."""
    access, case = _get_case(request, slug, suite_pk, case_pk)
    batch = delete_case(case, signed_in_user(request))
    # The message's Undo restores the batch (templates/evals/includes/messages.html).
    messages.success(request, f"Deleted {case.case_id}.", extra_tags=f"undo:{batch}")
    return cases_changed(request, access, case.suite)


@require_POST
@vary_on_headers("HX-Request")
def case_move(request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int) -> HttpResponse:
    """Move a case one place up or down (`direction`)."""
    access, case = _get_case(request, slug, suite_pk, case_pk)
    direction = request.POST.get("direction")
    if direction not in ("up", "down"):
        return HttpResponseBadRequest("direction must be up or down")
    if move_case(case, cast(Direction, direction), signed_in_user(request)):
        messages.success(request, f"Moved {case.case_id} {direction}.")
    return cases_changed(request, access, case.suite)


def _get_case(
    request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int
) -> tuple[WorkspaceAccess, Case]:
    """A case the user may edit (404 outside their workspaces, 403 without the role)."""
    access = workspace_access(request.user, slug, Capability.EDIT)
    cases = Case.objects.select_related("suite")
    case = get_object_or_404(
        cases, pk=case_pk, suite__pk=suite_pk, suite__workspace=access.workspace
    )
    case.suite.workspace = access.workspace
    return access, case


def cases_changed(request: HtmxHttpRequest, access: WorkspaceAccess, suite: Suite) -> HttpResponse:
    """htmx gets the re-rendered table; a plain form goes back to the page (post/redirect/get).

    The list the person was looking at (search, filters, order and page, sent along by each
    form) is kept.
    """
    list_form = CaseListForm(request.POST)
    page = request.POST.get("page", "")
    if request.htmx:
        context = suite_context(access, suite, list_form, page=page)
        return render_page(request, SUITE_PAGE, context, partial="cases")
    url = reverse("suite_detail", args=[suite.workspace.slug, suite.pk])
    parameters = list_form.listing().parameters() | ({"page": page} if page else {})
    return redirect(f"{url}?{urlencode(parameters)}" if parameters else url)


def suite_context(
    access: WorkspaceAccess,
    suite: Suite,
    list_form: CaseListForm,
    case_form: CaseForm | None = None,
    page: str | None = None,
) -> dict[str, Any]:
    """What the suite page shows: page `page` of the cases `list_form` asks for."""
    workspace = access.workspace
    listing = list_form.listing()
    criteria = review_form(workspace)
    blind = bool(criteria) and reviews_blind(access)
    if blind:
        # Cases by their scores would tell a blind reviewer what others said.
        listing = replace(listing, score="")
    # A page of cases at a time: rendering a row costs far more than reading it, and a
    # suite of thousands of cases must still open at once.
    page_obj, total = page_of_cases(
        suite, listing, page, CASES_PER_PAGE, status=status_seen_by(access)
    )
    cases = list(page_obj.object_list)
    places = places_on_page(suite, listing, cases, page_obj.start_index())
    summaries = summarize_cases(suite, cases, places)
    # The review form's answers, but none a blind reviewer may not see yet.
    hidden = blind_to(access, cases) if blind else set()
    return {
        "show_scores": bool(criteria),
        "score_choices": [] if blind else score_filter_choices(criteria),
        "case_scores": scores_of_cases(page_obj, hidden) if criteria else {},
        "scores_hidden": hidden,
        # The reviewers an owner may assign the selected cases to.
        "assignable": reviewers_of(workspace.pk) if access.can_manage else [],
        "workspace": workspace,
        "access": access,
        "suite": suite,
        "listing": listing,
        "list_form": list_form,
        "list_query": urlencode(listing.parameters()),
        "selectable": access.can_edit or access.can_review,
        # Evaluated only where the page offers moving cases (editors, a non-empty list).
        "move_targets": workspace.suites.exclude(pk=suite.pk).only("path", "workspace"),
        "summaries": summaries,
        # Summaries the worker has yet to recompute: the page says so, never computes them.
        "summaries_pending": pending_summaries(suite),
        "page_obj": page_obj,
        "total": total,
        "case_form": case_form or CaseForm(),
        "references": case_file_references(suite),
        # Whether the page offers upgrading it (docs/formats.md, "Upgrading to today's format").
        "older": profile_of(suite).is_older(suite),
        "conflicts": open_conflicts(workspace, suite),
        "trash_days": trash_days(),
        **suite_run_context(access, suite, [summary.case for summary in summaries], total),
    }

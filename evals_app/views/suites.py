"""Suite pages: a suite's cases in order, searched, added, duplicated, deleted and reordered."""

from __future__ import annotations

from typing import Any, cast
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from ..formatting.errors import EvalFileError
from ..forms import CaseForm
from ..models import Case, Suite
from ..permissions import Capability, WorkspaceAccess, signed_in_user, workspace_access
from ..services.cases import Direction, create_case, delete_case, duplicate_case, move_case
from ..services.formatting import WorkspaceFormatter
from ..services.suites import page_of_cases, summarize_cases
from .fragments import render_page
from .htmx_request import HtmxHttpRequest

SUITE_PAGE = "evals/suite_detail.html"
CASES_PER_PAGE = 50
MAX_SEARCH_LENGTH = 1000


@require_GET
@vary_on_headers("HX-Request")
def suite_detail(request: HtmxHttpRequest, slug: str, suite_pk: int) -> HttpResponse:
    """The suite's cases (`?q=` searches them); htmx gets only the table of cases."""
    access = workspace_access(request.user, slug)
    suite = get_object_or_404(access.workspace.suites, pk=suite_pk)
    context = _suite_context(access, suite, request.GET.get("q", ""), page=request.GET.get("page"))
    return render_page(request, SUITE_PAGE, context, partial="cases")


@require_POST
def case_create(request: HtmxHttpRequest, slug: str, suite_pk: int) -> HttpResponse:
    """Add a case with the given id and one empty user turn, then open it in the editor."""
    access = workspace_access(request.user, slug, Capability.EDIT)
    workspace = access.workspace
    suite = get_object_or_404(workspace.suites, pk=suite_pk)
    form = CaseForm(request.POST)
    if form.is_valid():
        try:
            case = create_case(suite, form.cleaned_data["case_id"], signed_in_user(request))
        except EvalFileError as error:
            form.add_error("case_id", error.message)
        else:
            messages.success(request, f"Added {case.case_id}.")
            return redirect("case_editor", workspace.slug, suite.pk, case.pk)
    context = _suite_context(access, suite, "", case_form=form)
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
    return _cases_changed(request, access, case.suite)


@require_POST
@vary_on_headers("HX-Request")
def case_delete(request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int) -> HttpResponse:
    """Delete a case (the form asks for confirmation first)."""
    access, case = _get_case(request, slug, suite_pk, case_pk)
    delete_case(case)
    messages.success(request, f"Deleted {case.case_id}.")
    return _cases_changed(request, access, case.suite)


@require_POST
@vary_on_headers("HX-Request")
def case_move(request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int) -> HttpResponse:
    """Move a case one place up or down (`direction`)."""
    access, case = _get_case(request, slug, suite_pk, case_pk)
    direction = request.POST.get("direction")
    if direction not in ("up", "down"):
        return HttpResponseBadRequest("direction must be up or down")
    if move_case(case, cast(Direction, direction)):
        messages.success(request, f"Moved {case.case_id} {direction}.")
    return _cases_changed(request, access, case.suite)


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


def _cases_changed(request: HtmxHttpRequest, access: WorkspaceAccess, suite: Suite) -> HttpResponse:
    """htmx gets the re-rendered table; a plain form goes back to the page (post/redirect/get).

    The search the person was looking at (`q`, sent along by each form) is kept.
    """
    query = request.POST.get("q", "").strip()
    page = request.POST.get("page", "")
    if request.htmx:
        context = _suite_context(access, suite, query, page=page)
        return render_page(request, SUITE_PAGE, context, partial="cases")
    url = reverse("suite_detail", args=[suite.workspace.slug, suite.pk])
    parameters = {name: value for name, value in (("q", query), ("page", page)) if value}
    return redirect(f"{url}?{urlencode(parameters)}" if parameters else url)


def _suite_context(
    access: WorkspaceAccess,
    suite: Suite,
    query: str,
    case_form: CaseForm | None = None,
    page: str | None = None,
) -> dict[str, Any]:
    workspace = access.workspace
    # No one searches for more than a paragraph, and SQLite refuses LIKE patterns over 50,000
    # bytes (an error, not an empty result).
    query = query.strip()[:MAX_SEARCH_LENGTH]
    # A page of cases at a time: rendering a row costs far more than reading it, and a
    # suite of thousands of cases must still open at once.
    page_obj, total = page_of_cases(suite, query, page, CASES_PER_PAGE)
    summaries = summarize_cases(WorkspaceFormatter(workspace), suite, page_obj.object_list)
    return {
        "workspace": workspace,
        "access": access,
        "suite": suite,
        "query": query,
        "summaries": summaries,
        "page_obj": page_obj,
        "total": total,
        "case_form": case_form or CaseForm(),
    }

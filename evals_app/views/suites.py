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
from ..models import Case, Suite, Workspace
from ..services.cases import Direction, create_case, delete_case, duplicate_case, move_case
from ..services.formatting import WorkspaceFormatter
from ..services.suites import search_cases, summarize_cases
from .fragments import render_page
from .htmx_request import HtmxHttpRequest

SUITE_PAGE = "evals/suite_detail.html"


@require_GET
@vary_on_headers("HX-Request")
def suite_detail(request: HtmxHttpRequest, slug: str, suite_pk: int) -> HttpResponse:
    """The suite's cases (`?q=` searches them); htmx gets only the table of cases."""
    workspace = get_object_or_404(Workspace, slug=slug)
    suite = get_object_or_404(workspace.suites, pk=suite_pk)
    context = _suite_context(workspace, suite, request.GET.get("q", ""))
    return render_page(request, SUITE_PAGE, context, partial="cases")


@require_POST
def case_create(request: HtmxHttpRequest, slug: str, suite_pk: int) -> HttpResponse:
    """Add a case with the given id and one empty user turn, then open it in the editor."""
    workspace = get_object_or_404(Workspace, slug=slug)
    suite = get_object_or_404(workspace.suites, pk=suite_pk)
    form = CaseForm(request.POST)
    if form.is_valid():
        try:
            case = create_case(suite, form.cleaned_data["case_id"])
        except EvalFileError as error:
            form.add_error("case_id", error.message)
        else:
            messages.success(request, f"Added {case.case_id}.")
            return redirect("case_editor", workspace.slug, suite.pk, case.pk)
    context = _suite_context(workspace, suite, "", case_form=form)
    return render(request, SUITE_PAGE, context, status=422)


@require_POST
@vary_on_headers("HX-Request")
def case_duplicate(
    request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int
) -> HttpResponse:
    """Copy a case, placing the copy right after it."""
    case = _get_case(slug, suite_pk, case_pk)
    try:
        copy = duplicate_case(case)
    except EvalFileError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"Duplicated {case.case_id} as {copy.case_id}.")
    return _cases_changed(request, case.suite)


@require_POST
@vary_on_headers("HX-Request")
def case_delete(request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int) -> HttpResponse:
    """Delete a case (the form asks for confirmation first)."""
    case = _get_case(slug, suite_pk, case_pk)
    delete_case(case)
    messages.success(request, f"Deleted {case.case_id}.")
    return _cases_changed(request, case.suite)


@require_POST
@vary_on_headers("HX-Request")
def case_move(request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int) -> HttpResponse:
    """Move a case one place up or down (`direction`)."""
    case = _get_case(slug, suite_pk, case_pk)
    direction = request.POST.get("direction")
    if direction not in ("up", "down"):
        return HttpResponseBadRequest("direction must be up or down")
    if move_case(case, cast(Direction, direction)):
        messages.success(request, f"Moved {case.case_id} {direction}.")
    return _cases_changed(request, case.suite)


def _get_case(slug: str, suite_pk: int, case_pk: int) -> Case:
    cases = Case.objects.select_related("suite__workspace")
    return get_object_or_404(cases, pk=case_pk, suite__pk=suite_pk, suite__workspace__slug=slug)


def _cases_changed(request: HtmxHttpRequest, suite: Suite) -> HttpResponse:
    """htmx gets the re-rendered table; a plain form goes back to the page (post/redirect/get).

    The search the person was looking at (`q`, sent along by each form) is kept.
    """
    query = request.POST.get("q", "").strip()
    if request.htmx:
        context = _suite_context(suite.workspace, suite, query)
        return render_page(request, SUITE_PAGE, context, partial="cases")
    url = reverse("suite_detail", args=[suite.workspace.slug, suite.pk])
    return redirect(f"{url}?{urlencode({'q': query})}" if query else url)


def _suite_context(
    workspace: Workspace, suite: Suite, query: str, case_form: CaseForm | None = None
) -> dict[str, Any]:
    query = query.strip()
    summaries = summarize_cases(WorkspaceFormatter(workspace), suite, search_cases(suite, query))
    return {
        "workspace": workspace,
        "suite": suite,
        "query": query,
        "summaries": summaries,
        "total": suite.cases.count() if query else len(summaries),
        "case_form": case_form or CaseForm(),
    }

"""The workspace's search: every suite's cases whose id or text holds the words asked."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ..permissions import workspace_access
from ..services.cases.workspace_search import search_workspace
from .htmx_request import HtmxHttpRequest

SEARCH_PAGE = "evals/workspace_search.html"
RESULTS_PER_PAGE = 50


@require_GET
def workspace_search(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """`q` searched in every suite of the workspace, grouped by suite; `page` pages on."""
    access = workspace_access(request.user, slug)
    search = search_workspace(
        access.workspace, request.GET.get("q", ""), request.GET.get("page"), RESULTS_PER_PAGE
    )
    context = {"workspace": access.workspace, "access": access, "search": search}
    return render(request, SEARCH_PAGE, context)

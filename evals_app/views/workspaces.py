"""Read-only pages: workspaces, a workspace's suites and files, a suite's formatted cases."""

from __future__ import annotations

from django.db.models import Count, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from ..models import ContentBlock, Message, Workspace
from ..services.formatting import WorkspaceFormatter


@require_GET
def workspace_list(request: HttpRequest) -> HttpResponse:
    """Every workspace with its number of suites."""
    workspaces = Workspace.objects.annotate(suite_count=Count("suites"))
    return render(request, "evals/workspace_list.html", {"workspaces": workspaces})


@require_GET
def workspace_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A workspace's suites, files and guideline patterns."""
    workspace = get_object_or_404(Workspace, slug=slug)
    suites = workspace.suites.annotate(case_count=Count("cases"))
    files = workspace.files.only("path", "updated_at")
    return render(
        request,
        "evals/workspace_detail.html",
        {"workspace": workspace, "suites": suites, "files": files},
    )


@require_GET
def suite_detail(request: HttpRequest, slug: str, suite_pk: int) -> HttpResponse:
    """A suite's cases, each with the question the model will receive (lm mode)."""
    workspace = get_object_or_404(Workspace, slug=slug)
    suite = get_object_or_404(workspace.suites, pk=suite_pk)
    cases = suite.cases.prefetch_related(
        Prefetch(
            "messages",
            queryset=Message.objects.order_by("section", "position").prefetch_related(
                Prefetch("blocks", queryset=ContentBlock.objects.order_by("position"))
            ),
        )
    )
    formatter = WorkspaceFormatter(workspace)
    rows = [(case, formatter.format(case, suite)) for case in cases]
    return render(
        request,
        "evals/suite_detail.html",
        {"workspace": workspace, "suite": suite, "rows": rows},
    )

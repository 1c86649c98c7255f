"""Asking for a workspace's export: the same files `export_evals` writes, as one zip made by
the worker (docs/jobs.md)."""

from __future__ import annotations

from django.contrib import messages
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from ..models import Case, Job, ReviewStatus
from ..permissions import signed_in_user, workspace_access
from ..services.jobs.queue import start_job
from .htmx_request import HtmxHttpRequest


@require_POST
def workspace_export(request: HtmxHttpRequest, slug: str) -> HttpResponseBase:
    """Queue the workspace's export as a zip: suites, files, config and formatted.jsonl
    (`approved=1`: only approved cases; with none approved, the workspace page says so instead
    of a zip of empty suites). The job's page offers the download."""
    access = workspace_access(request.user, slug)
    approved_only = request.POST.get("approved") == "1"
    workspace = access.workspace
    approved = Case.objects.filter(suite__workspace=workspace, status=ReviewStatus.APPROVED)
    if approved_only and not approved.exists():
        messages.warning(
            request,
            f"No case of {workspace.name} is approved yet, so an approved-only export would "
            "hold only empty suites. Download the full export, or approve cases first.",
        )
        return redirect(workspace)
    job = start_job(
        Job.Kind.EXPORT, signed_in_user(request), workspace, approved_only=approved_only
    )
    return redirect(job)

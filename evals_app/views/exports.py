"""Asking for a workspace's export: the same files `export_evals` writes, as one zip made by
the worker (docs/jobs.md)."""

from __future__ import annotations

from django.contrib import messages
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from ..permissions import signed_in_user, workspace_access
from ..services.jobs.requests import JobRefused, ask_export
from .htmx_request import HtmxHttpRequest


@require_POST
def workspace_export(request: HtmxHttpRequest, slug: str) -> HttpResponseBase:
    """Queue the workspace's export as a zip: suites, files, config and formatted.jsonl
    (`approved=1`: only approved cases; with none approved, the workspace page says so instead
    of a zip of empty suites). The job's page offers the download."""
    access = workspace_access(request.user, slug)
    approved_only = request.POST.get("approved") == "1"
    try:
        job = ask_export(signed_in_user(request), access.workspace, approved_only=approved_only)
    except JobRefused as refusal:
        messages.warning(request, str(refusal))
        return redirect(access.workspace)
    return redirect(job)

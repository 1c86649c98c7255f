"""Exports: a workspace's, the same files `export_evals` writes, as one zip made by the worker
(docs/jobs.md); a suite's in another tool's format, downloaded at once (docs/exports.md)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET, require_POST

from ..permissions import signed_in_user, workspace_access
from ..services.exports.other_formats import ExportRefused, export_suite, export_suite_every_way
from ..services.jobs.requests import JobRefused, ask_export
from ..services.profiles import profile_of
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


@require_GET
def suite_export(request: HtmxHttpRequest, slug: str, suite_pk: int) -> HttpResponse:
    """Export as…: the suite in each other tool's format, with what each would leave out
    (docs/exports.md); any member may export."""
    access = workspace_access(request.user, slug)
    suite = get_object_or_404(access.workspace.suites, pk=suite_pk)
    suite.workspace = access.workspace
    context = {
        "workspace": access.workspace,
        "suite": suite,
        "exports": export_suite_every_way(suite),
        "older": profile_of(suite).is_older(suite),
    }
    return render(request, "evals/suite_export.html", context)


@require_GET
def suite_export_file(
    request: HtmxHttpRequest, slug: str, suite_pk: int, format_name: str
) -> HttpResponse:
    """The suite as a file in the format `format_name` (`promptfoo`, `chat-jsonl`), to
    download; 404 for another name."""
    access = workspace_access(request.user, slug)
    suite = get_object_or_404(access.workspace.suites, pk=suite_pk)
    suite.workspace = access.workspace
    try:
        exported = export_suite(suite, format_name)
    except ExportRefused as refusal:
        raise Http404(str(refusal)) from refusal
    media_type = exported.format.media_type
    response = HttpResponse(exported.text, content_type=f"{media_type}; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, exported.file_name)
    return response

"""Downloading a workspace's export: the same files `export_evals` writes, as one zip."""

from __future__ import annotations

import tempfile
import zipfile
from pathlib import Path

from django.contrib import messages
from django.http import FileResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.views.decorators.http import require_GET

from ..models import Case, ReviewStatus
from ..permissions import workspace_access
from ..services.exports.exporting import export_workspace
from .htmx_request import HtmxHttpRequest


@require_GET
def workspace_export(request: HtmxHttpRequest, slug: str) -> HttpResponseBase:
    """The workspace as a zip: suites, files, config and formatted.jsonl (`?approved=1`: only
    approved cases; with none approved, the workspace page says so instead of a zip of empty
    suites)."""
    access = workspace_access(request.user, slug)
    approved_only = request.GET.get("approved") == "1"
    workspace = access.workspace
    approved = Case.objects.filter(suite__workspace=workspace, status=ReviewStatus.APPROVED)
    if approved_only and not approved.exists():
        messages.warning(
            request,
            f"No case of {workspace.name} is approved yet, so an approved-only export would "
            "hold only empty suites. Download the full export, or approve cases first.",
        )
        return redirect(workspace)
    archive = tempfile.TemporaryFile()  # noqa: SIM115 - FileResponse closes it when sent
    with tempfile.TemporaryDirectory() as folder:
        # In the request's own process: a web server's worker is not forked for a download.
        summary = export_workspace(
            access.workspace, Path(folder), approved_only=approved_only, jobs=1
        )
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
            for path in sorted(summary.folder.rglob("*")):
                if path.is_file():
                    zipped.write(path, path.relative_to(Path(folder)).as_posix())
    archive.seek(0)
    suffix = "-approved" if approved_only else ""
    return FileResponse(
        archive, as_attachment=True, filename=f"{access.workspace.slug}{suffix}.zip"
    )

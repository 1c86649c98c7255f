"""Downloading a workspace's export: the same files `export_evals` writes, as one zip."""

from __future__ import annotations

import tempfile
import zipfile
from pathlib import Path

from django.http import FileResponse
from django.views.decorators.http import require_GET

from ..permissions import workspace_access
from ..services.exporting import export_workspace
from .htmx_request import HtmxHttpRequest


@require_GET
def workspace_export(request: HtmxHttpRequest, slug: str) -> FileResponse:
    """The workspace as a zip: suites, files, config and formatted.jsonl (`?approved=1`: only
    approved cases)."""
    access = workspace_access(request.user, slug)
    approved_only = request.GET.get("approved") == "1"
    archive = tempfile.TemporaryFile()  # noqa: SIM115 - FileResponse closes it when sent
    with tempfile.TemporaryDirectory() as folder:
        summary = export_workspace(access.workspace, Path(folder), approved_only=approved_only)
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
            for path in sorted(summary.folder.rglob("*")):
                if path.is_file():
                    zipped.write(path, path.relative_to(Path(folder)).as_posix())
    archive.seek(0)
    suffix = "-approved" if approved_only else ""
    return FileResponse(
        archive, as_attachment=True, filename=f"{access.workspace.slug}{suffix}.zip"
    )

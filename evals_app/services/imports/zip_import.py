"""Importing a workspace from an uploaded .zip of its folder: unpacked safely into a temporary
folder, then imported exactly as `import_evals` imports a folder."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO

from django.conf import settings
from django.contrib.auth.models import User

from ...models import ActivityRecord, Membership, Workspace
from ..jobs.progress import Progress, no_progress
from ..workspaces.activity import record_activity
from ..workspaces.lifecycle import WorkspaceNameError, clean_workspace_name, name_taken
from .folders import ImportFailed, ImportSummary, import_workspace
from .zip_extraction import ZipLimits, ZipRefused, extract_zip


class ZipImportFailed(Exception):
    """The import was refused and nothing was written; `errors` says why, one line each."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = errors


def zip_limits() -> ZipLimits:
    """The limits of an uploaded .zip (setting AGENTV_MAX_IMPORT_BYTES for its own size)."""
    return ZipLimits(compressed_bytes=int(settings.AGENTV_MAX_IMPORT_BYTES))


def import_zip(
    upload: IO[bytes],
    name: str,
    importer: User,
    may_import_into: Callable[[Workspace], bool],
    *,
    fallback_name: str = "Imported workspace",
    limits: ZipLimits | None = None,
    progress: Progress = no_progress,
    unpack_in: Path | None = None,
) -> ImportSummary:
    """Import the workspace folder zipped in `upload` as the workspace `name` (by default the
    archive's top folder, else `fallback_name`).

    A new workspace is owned by `importer`; into an existing one, which `may_import_into` must
    allow, the suites at the same paths are replaced, as with `import_evals`.
    Raises ZipImportFailed, having written nothing, when the archive is unsafe or any eval file
    is invalid. `progress` hears how the import goes (docs/jobs.md). The archive is unpacked
    in a temporary folder inside `unpack_in` (a job's scratch; default: the system's).
    """
    with tempfile.TemporaryDirectory(prefix="agentv-import-", dir=unpack_in) as folder:
        scratch = Path(folder)
        progress(0, 0, "unpacking the .zip")
        try:
            root = extract_zip(upload, scratch, limits or zip_limits())
        except ZipRefused as refusal:
            raise ZipImportFailed([str(refusal)]) from None
        name = name.strip() or (root.name if root != scratch else fallback_name)
        existing = Workspace.objects.filter(name=name).first()
        if existing is not None and not may_import_into(existing):
            # Said as for any taken name: who owns it is not the importer's business.
            raise ZipImportFailed([name_taken(name).message])
        if existing is None:
            try:
                name = clean_workspace_name(name)
            except WorkspaceNameError as error:
                raise ZipImportFailed([error.message]) from None
        suites_before = set(existing.suites.values_list("pk", flat=True)) if existing else set()

        def settle(summary: ImportSummary) -> None:
            # In the import's final transaction, so the files are read outside any (a worker's
            # progress shows meanwhile) and the name is checked again where it is written.
            workspace = summary.workspace
            if summary.sync is None:
                Membership.objects.create(
                    workspace=workspace, user=importer, role=Membership.Role.OWNER
                )
                created = ActivityRecord.Action.WORKSPACE_CREATED
                record_activity(workspace, importer, created, name, "imported from a .zip")
            elif existing is None or existing.pk != workspace.pk or not may_import_into(workspace):
                raise ZipImportFailed([name_taken(name).message])
            # One INSERT: this runs in the short transaction that makes the import visible.
            ActivityRecord.objects.bulk_create(
                ActivityRecord(
                    workspace=workspace,
                    actor=importer,
                    action=ActivityRecord.Action.SUITE_IMPORTED,
                    subject=suite.path,
                    suite=suite,
                )
                for suite in workspace.suites.exclude(pk__in=suites_before)
                .only("pk", "path")  # not their texts: megabytes each, read under the lock
                .order_by("path")
            )

        try:
            # The archive's folder is temporary: it is not where the repository lives.
            return import_workspace(
                root,
                name,
                record_checkout_folder=False,
                progress=progress,
                then=settle,
                share_the_writer=True,
            )
        except ImportFailed as failure:
            raise ZipImportFailed(
                [_without_folder(str(error), root) for error in failure.errors]
            ) from None


def _without_folder(message: str, root: Path) -> str:
    # The importer names files by their path in the workspace, except when it names the
    # folder itself: show that as the archive, not as a temporary folder on the server.
    for folder in (str(root.resolve()), str(root)):
        message = message.replace(f"{folder}/", "").replace(folder, "the .zip")
    return message

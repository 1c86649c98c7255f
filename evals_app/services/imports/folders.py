"""Importing an AgentV workspace folder (or one eval file) into the database, all or nothing.

Eval files of every period are found and read by `eval_files` (docs/formats.md) and formatted
once (folder_reading.py). A new workspace is written in batches, hidden until its import
commits (batches.py); into an existing one the files come in by the three-way rule, in one
transaction (docs/sync.md).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.db import transaction

from ...eval_files.discovery import discover
from ...eval_files.errors import EvalFileError
from ...formatting.workspace_files import DirectoryFiles
from ...models import Workspace
from ..jobs.progress import Progress, no_progress
from ..repository import git as git_repository
from ..repository.three_way import Incoming, sync_workspace_files
from .batches import import_new_workspace
from .folder_reading import (
    FolderReading,
    ImportFailed,
    ImportSummary,
    check_location,
    link_repository,
    skipped_link,
)
from .staging import remove_abandoned_imports

__all__ = ["ImportFailed", "ImportSummary", "import_workspace"]


def import_workspace(
    path: Path,
    name: str | None = None,
    *,
    dry_run: bool = False,
    link: bool = False,
    record_checkout_folder: bool = True,
    progress: Progress = no_progress,
    then: Callable[[ImportSummary], None] | None = None,
    share_the_writer: bool = False,
) -> ImportSummary:
    """Import the workspace folder `path`, or the single eval file `path` with its folder as root.

    Into an existing workspace the files come in by the three-way rule (docs/sync.md), which
    `dry_run` reports without writing. With `link` (`import_evals` sets it; a .zip upload does
    not), a folder inside a git work tree links the workspace to its repository. The root
    becomes the workspace's checkout folder (docs/formatting.md, "Agent mode's absolute
    paths") unless `record_checkout_folder` is false (a temporary folder, as for a .zip).
    Raises ImportFailed, having written nothing, when any eval file is refused. `progress`
    hears of each eval file read and each batch of suites written (docs/jobs.md); `then` is
    called with the summary inside the transaction that makes the import visible (it may
    write more, or raise to undo it all). With `share_the_writer` (a .zip upload), a new
    workspace's batches leave SQLite's one writer free a moment between them (docs/jobs.md).
    """
    if not path.exists():
        raise ImportFailed([EvalFileError("no such file or folder", file=str(path))])
    root = (path.parent if path.is_file() else path).resolve()
    name = name or root.name
    location = git_repository.locate(root) if link else None
    checkout_folder = root.as_posix() if record_checkout_folder else None
    remove_abandoned_imports()  # a killed import's hidden workspace may hold the name
    existing = Workspace.objects.filter(name=name).first()
    if existing is None:
        return import_new_workspace(
            path,
            name,
            location,
            checkout_folder or "",
            dry_run=dry_run,
            progress=progress,
            then=then,
            share_the_writer=share_the_writer,
        )
    return _import_into(existing, path, location, checkout_folder, dry_run, progress, then)


def _import_into(
    existing: Workspace,
    path: Path,
    location: git_repository.WorkTreeLocation | None,
    checkout_folder: str | None,
    dry_run: bool,
    progress: Progress,
    then: Callable[[ImportSummary], None] | None,
) -> ImportSummary:
    """Bring the files into the existing workspace by the three-way rule, in one transaction:
    a sync decides each case against what the workspace holds as a whole."""
    root = (path.parent if path.is_file() else path).resolve()
    found = discover(root, path.resolve() if path.is_file() else None)
    if found.errors:
        raise ImportFailed(found.errors)
    check_location(location, path)
    summary = ImportSummary(workspace=existing, skipped=found.skipped)
    if location is not None:
        # A repository's symbolic link is not a file the app can edit and publish
        # (docs/security.md).
        found.eval_files = [
            eval_file
            for eval_file in found.eval_files
            if not skipped_link(root, eval_file.path, summary)
        ]
    reading = FolderReading(DirectoryFiles(root))
    reading.read_configs(found.configs, summary)
    summary.warnings.extend(str(note) for note in found.notes)
    headers: dict[str, dict[Any, Any]] = {f.path: f.contents.header for f in found.eval_files}
    for index, eval_file in enumerate(found.eval_files):
        progress(index, len(found.eval_files), "eval files read")
        header = headers.get(eval_file.referenced_by or "", eval_file.contents.header)
        reading.format_file(eval_file, header)
    summary.warnings += reading.file_warnings
    stored = reading.storable(summary, root if location is not None else None)
    summary.suites = len(found.eval_files)
    summary.cases = sum(len(eval_file.contents.cases) for eval_file in found.eval_files)
    summary.files = len(stored)
    with transaction.atomic():
        incoming = Incoming(found.eval_files, stored, complete=not path.is_file())
        summary.sync = sync_workspace_files(existing, incoming, "the files", dry_run=dry_run)
        if dry_run:
            return summary
        summary.workspace = _checked_out_at(existing, checkout_folder)
        if location is not None:
            link_repository(summary.workspace, location)
        if then is not None:
            then(summary)
    return summary


def _checked_out_at(workspace: Workspace, checkout_folder: str | None) -> Workspace:
    """The workspace, locked, with `checkout_folder` recorded (when given)."""
    locked = Workspace.objects.select_for_update().get(pk=workspace.pk)
    if checkout_folder is not None and locked.checkout_folder != checkout_folder:
        locked.checkout_folder = checkout_folder
        locked.save(update_fields=["checkout_folder", "updated_at"])
    return locked

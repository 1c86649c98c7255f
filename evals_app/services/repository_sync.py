"""Syncing a linked workspace with a commit of its repository, read through git itself.

The files are those of the commit (never the work tree), discovered as an import discovers a
folder; the three-way rule (syncing.py, docs/sync.md) brings them in, and the base moves to
the commit.
"""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth.models import User
from django.db import transaction

from ..eval_files.case_parts import case_input, file_evaluators
from ..eval_files.discovery import Discovery, discover_tree
from ..eval_files.file_trees import MappingTree
from ..formatting.workspace_files import resolve_file
from ..models import ActivityRecord, Workspace
from . import git_repository
from .activity import record_activity
from .importing import ImportFailed
from .syncing import Incoming, SyncReport, sync_workspace_files

SYMBOLIC_LINK_MODE = "120000"


class NotLinked(Exception):
    """The workspace was not imported from a git repository."""

    def __init__(self, workspace: Workspace) -> None:
        super().__init__(
            f"workspace {workspace.name!r} is not linked to a git repository: import it "
            "from a folder inside a git work tree first"
        )


def repository_of(workspace: Workspace) -> Path:
    """The linked repository's folder. Raises NotLinked."""
    if not workspace.linked:
        raise NotLinked(workspace)
    return Path(workspace.repository_path)


def commit_tree(repository: Path, commit: str, folder: str) -> MappingTree:
    """The files under `folder` of `commit` as a file tree; symbolic links and paths the path
    rule refuses are left out, named (`MappingTree.left_out`)."""
    listed = git_repository.list_files(repository, commit, folder)
    entries = {entry.name: entry for entry in listed if entry.mode != SYMBOLIC_LINK_MODE}
    links = [entry.name for entry in listed if entry.mode == SYMBOLIC_LINK_MODE]

    def load(paths: list[str]) -> dict[str, bytes]:
        blobs = git_repository.read_blobs(repository, [entries[path].object_id for path in paths])
        return {path: blobs[entries[path].object_id] for path in paths}

    return MappingTree({path: entry.size or 0 for path, entry in entries.items()}, load, links)


def read_commit(workspace: Workspace, ref: str | None = None) -> tuple[str, Incoming]:
    """The commit `ref` names (default: the linked branch) and the workspace files it holds.

    Raises NotLinked, GitError, or ImportFailed when an eval file of the commit is refused.
    """
    repository = repository_of(workspace)
    commit = git_repository.resolve_commit(repository, ref or workspace.repository_branch or "HEAD")
    tree = commit_tree(repository, commit, workspace.repository_folder)
    found = discover_tree(tree, where=f"{workspace.repository_folder or '.'} at {commit[:12]}")
    if found.errors:
        raise ImportFailed(found.errors)
    return commit, Incoming(found.eval_files, _stored_texts(found, tree), skipped=tree.left_out())


def sync_repository(
    workspace: Workspace,
    ref: str | None = None,
    *,
    dry_run: bool = False,
    actor: User | None = None,
) -> tuple[str, SyncReport]:
    """Bring the commit `ref` names into `workspace` by the three-way rule and move the base
    there (docs/sync.md); a dry run only reports. Returns the commit and the report."""
    commit, incoming = read_commit(workspace, ref)
    origin = f"the repository at {commit[:12]}"
    with transaction.atomic():
        report = sync_workspace_files(workspace, incoming, origin, dry_run=dry_run, actor=actor)
        if not dry_run:
            Workspace.objects.filter(pk=workspace.pk).update(base_commit=commit)
            workspace.base_commit = commit
            detail = f"{len(report.conflicts)} conflicts" if report.conflicts else ""
            record_activity(workspace, actor, ActivityRecord.Action.SYNCED, commit[:12], detail)
    return commit, report


def _stored_texts(found: Discovery, tree: MappingTree) -> dict[str, str]:
    """The texts an import would store: configs, the files cases refer to, CSV files."""
    texts: dict[str, str] = {}
    for path, source in found.configs.items():
        try:
            texts[path] = source.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            continue  # skipped, as an import skips it
    for eval_file in found.eval_files:
        contents = eval_file.contents
        evaluators = file_evaluators(contents.header)
        for parts in contents.parts:
            for value in case_input(parts, evaluators).file_references():
                resolution = resolve_file(value, eval_file.path, tree)
                if resolution.file is not None:
                    texts[resolution.file.path] = resolution.file.text
        if contents.format == "csv":
            text = tree.read_text(eval_file.path)
            if text is not None:
                texts[eval_file.path] = text
    return texts

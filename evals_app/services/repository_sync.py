"""Syncing a linked workspace with a commit of its repository, read through git itself.

The files are those of the commit (never the work tree), discovered as an import discovers a
folder; the three-way rule (syncing.py, docs/sync.md) brings them in, and the base moves to
the commit.
"""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth.models import User
from django.db import transaction

from ..eval_files.discovery import Discovery, discover_tree
from ..eval_files.file_trees import MappingTree
from ..models import ActivityRecord, Workspace
from . import git_repository
from .activity import record_activity
from .importing import ImportFailed
from .profiles import SuiteProfile, profile_for_file, suite_profiles
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
    """The files under `folder` of `commit` as a file tree (symbolic links left out)."""
    entries = {
        entry.name: entry
        for entry in git_repository.list_files(repository, commit, folder)
        if entry.mode != SYMBOLIC_LINK_MODE
    }

    def load(paths: list[str]) -> dict[str, bytes]:
        blobs = git_repository.read_blobs(repository, [entries[path].object_id for path in paths])
        return {path: blobs[entries[path].object_id] for path in paths}

    return MappingTree({path: entry.size or 0 for path, entry in entries.items()}, load)


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
    texts = _stored_texts(found, tree, suite_profiles(workspace))
    return commit, Incoming(found.eval_files, texts)


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


def _stored_texts(
    found: Discovery, tree: MappingTree, profiles: dict[str, SuiteProfile]
) -> dict[str, str]:
    """The texts an import would store: configs, the files cases read (by the profile of the
    suite each file is, else the one its spelling gives it), CSV files."""
    texts: dict[str, str] = {}
    for path, source in found.configs.items():
        try:
            texts[path] = source.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            continue  # skipped, as an import skips it
    headers = {eval_file.path: eval_file.contents.header for eval_file in found.eval_files}
    for eval_file in found.eval_files:
        contents = eval_file.contents
        profile = profiles.get(eval_file.path) or profile_for_file(contents.cases_key)
        header = headers.get(eval_file.referenced_by or "", contents.header)
        texts.update(profile.files_read(eval_file, header, tree))
        if contents.format == "csv":
            text = tree.read_text(eval_file.path)
            if text is not None:
                texts[eval_file.path] = text
    return texts

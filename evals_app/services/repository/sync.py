"""Syncing a linked workspace with a commit of its repository, read through git itself.

The files are those of the commit (never the work tree), discovered as an import discovers a
folder; the three-way rule (syncing.py, docs/sync.md) brings them in, and the base moves to
the commit.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction

from ...eval_files.discovery import Discovery, discover_tree
from ...eval_files.file_trees import CONFIG_NAME, YAML_SUFFIXES, MappingTree
from ...eval_files.reading import READ_ONLY_FORMATS
from ...eval_files.yaml_loader import MAX_BYTES
from ...models import ActivityRecord, Workspace
from ..imports.folders import ImportFailed
from ..jobs.progress import Progress, no_progress
from ..profiles import SuiteProfile, profile_for_file, suite_profiles
from ..workspaces.activity import record_activity
from . import git as git_repository
from . import pending_publish
from .read_transactions import read_transaction
from .settled import ReadFiles, RecordingFiles, SettledChanged, settled_files, settles_alone
from .three_way import Incoming, SyncReport, sync_workspace_files

SYMBOLIC_LINK_MODE = "120000"
ATTEMPTS = 3  # commits read again when a suite found settled was edited meanwhile


class NotLinked(Exception):
    """The workspace was not imported from a git repository."""

    def __init__(self, workspace: Workspace) -> None:
        super().__init__(
            f"workspace {workspace.name!r} is not linked to a git repository: import it "
            "from a folder inside a git work tree first"
        )


class RepositoryTooLarge(git_repository.GitError):
    """The files a sync would read add up to more than the limit; none was read."""


class WorkspaceChanged(git_repository.GitError):
    """Suites the sync did not read kept being edited while it read the commit; nothing was
    synced."""


@dataclass(frozen=True)
class SkippedFile:
    """A file of the commit larger than the limit for one file: not read, reported."""

    path: str
    size: int
    limit: int

    @property
    def why(self) -> str:
        return f"{self.size} bytes, over the limit of {self.limit} bytes per file"


def repository_of(workspace: Workspace) -> Path:
    """The linked repository's folder. Raises NotLinked."""
    if not workspace.linked:
        raise NotLinked(workspace)
    return Path(workspace.repository_path)


def commit_tree(
    repository: Path,
    commit: str,
    folder: str,
    skipped: list[SkippedFile] | None = None,
    listed: list[git_repository.TreeEntry] | None = None,
    unread: Collection[str] = (),
) -> MappingTree:
    """The files under `folder` of `commit` (`listed`, when listed already) as a file tree;
    symbolic links and paths the path rule refuses are left out, named
    (`MappingTree.left_out`).

    A file larger than AGENTV_REPOSITORY_FILE_MAX_BYTES is left out too (a YAML file or a
    config is added to `skipped`); when the YAML files and configs, read first (but those of
    `unread`, known not to be needed), add up to more than AGENTV_REPOSITORY_READ_MAX_BYTES,
    RepositoryTooLarge is raised before any is read, and later reads stop at that total
    (docs/sync.md, "Limits").
    """
    file_limit = _file_limit()
    total_limit = settings.AGENTV_REPOSITORY_READ_MAX_BYTES
    entries: dict[str, git_repository.TreeEntry] = {}
    if listed is None:
        listed = git_repository.list_files(repository, commit, folder)
    links = [entry.name for entry in listed if entry.mode == SYMBOLIC_LINK_MODE]
    for entry in listed:
        if entry.mode == SYMBOLIC_LINK_MODE:
            continue
        size = entry.size or 0
        if size <= file_limit:
            entries[entry.name] = entry
        elif skipped is not None and _read_first(entry.name):
            skipped.append(SkippedFile(entry.name, size, file_limit))
    first = sum(
        entry.size or 0
        for path, entry in entries.items()
        if _read_first(path) and path not in unread
    )
    if first > total_limit:
        raise RepositoryTooLarge(
            f"the YAML files and configs under {folder or '.'} at {commit[:12]} add up to "
            f"{first} bytes, more than the limit of {total_limit} bytes a sync may read; "
            "nothing was read"
        )
    budget = [total_limit]

    def load(paths: list[str]) -> dict[str, bytes]:
        wanted = sum(entries[path].size or 0 for path in paths)
        if wanted > budget[0]:
            raise RepositoryTooLarge(
                f"the files under {folder or '.'} at {commit[:12]} that the eval files use add "
                f"up to more than the limit of {total_limit} bytes a sync may read"
            )
        ids = [entries[path].object_id for path in paths]
        blobs = git_repository.read_blobs(repository, ids, max_bytes=budget[0])
        budget[0] -= sum(len(content) for content in blobs.values())
        return {path: blobs[entries[path].object_id] for path in paths}

    return MappingTree({path: entry.size or 0 for path, entry in entries.items()}, load, links)


def _file_limit() -> int:
    """The size over which a file of a commit is not read."""
    return min(settings.AGENTV_REPOSITORY_FILE_MAX_BYTES, MAX_BYTES)


def _read_first(path: str) -> bool:
    """Whether discovery reads the file whatever it holds: a YAML file or a config."""
    return path.endswith(YAML_SUFFIXES) or path.endswith(CONFIG_NAME)


def read_commit(workspace: Workspace, ref: str | None = None) -> tuple[str, Incoming]:
    """The commit `ref` names (default: the tip of the linked branch) and the workspace files
    it holds; files over the size limit are named in its `skipped` and not read.

    Raises NotLinked, GitError, or ImportFailed when an eval file of the commit is refused.
    """
    repository = repository_of(workspace)
    commit = followed_commit(workspace) if ref is None else named_commit(repository, ref)
    over_limit: list[SkippedFile] = []
    listed = git_repository.list_files(repository, commit, workspace.repository_folder)
    # The suites known unchanged, with the files their cases read, are not read at all
    # (settled.py), nor counted toward the limit: a check with nothing changed reads only what
    # changed, however large the repository.
    blobs = {
        entry.name: entry.object_id
        for entry in listed
        if entry.mode != SYMBOLIC_LINK_MODE and (entry.size or 0) <= _file_limit()
    }
    settled = settled_files(workspace, blobs)
    tree = commit_tree(
        repository, commit, workspace.repository_folder, over_limit, listed, unread=settled
    )
    tree.leave_unread(settled)
    where = f"{workspace.repository_folder or '.'} at {commit[:12]}"
    found = discover_tree(tree, where=where, known=settled)
    if found.errors:
        raise ImportFailed(found.errors)
    unread = frozenset(file.path for file in over_limit)
    skipped = tree.left_out() + [(file.path, file.why) for file in over_limit]
    reads: dict[str, ReadFiles] = {}
    texts = _stored_texts(found, tree, suite_profiles(workspace), reads)
    incoming = Incoming(
        found.eval_files, texts, unread=unread, skipped=skipped, settled=settled, reads=reads
    )
    return commit, incoming


def followed_commit(workspace: Workspace) -> str:
    """The commit at the tip of the branch the workspace follows (`refs/heads/BRANCH`, never
    a tag of the same name), or of HEAD when it follows none. Raises GitError."""
    repository = repository_of(workspace)
    branch = workspace.repository_branch
    if not branch:
        return git_repository.resolve_commit(repository, "HEAD")
    commit = git_repository.branch_commit(repository, branch)
    if commit is None:
        raise git_repository.GitError(f"branch {branch!r} does not exist in {repository}")
    return commit


def named_commit(repository: Path, ref: str) -> str:
    """The commit `ref` names, a branch of that name first (`refs/heads/REF`, before a tag)."""
    try:
        commit = git_repository.branch_commit(repository, ref)
    except git_repository.InvalidBranchName:
        commit = None
    return commit or git_repository.resolve_commit(repository, ref)


def sync_repository(
    workspace: Workspace,
    ref: str | None = None,
    *,
    dry_run: bool = False,
    actor: User | None = None,
    checked: str | None = None,
    progress: Progress = no_progress,
    on_write: Callable[[], None] | None = None,
) -> tuple[str, SyncReport]:
    """Bring the commit `ref` names into `workspace` by the three-way rule and move the base
    there (docs/sync.md); a dry run only reports. Returns the commit and the report.

    With `checked` (the commit a Check showed), the followed branch must still be at that
    commit, or nothing is synced: Apply never brings in a commit other than the branch's.
    A publish a crash left half done is finished (or undone) first. `progress` hears which
    step it is at (docs/jobs.md). `on_write` runs first in the transaction that writes the
    sync (linking saves the link there, so a refused sync keeps none).
    """
    pending_publish.settle(workspace)
    if checked is not None:
        ref = _still_checked(workspace, checked)
    for _ in range(ATTEMPTS):
        progress(0, 2, "steps: reading the commit")
        commit, incoming = read_commit(workspace, ref)
        origin = f"the repository at {commit[:12]}"
        progress(1, 2, "steps: comparing with the workspace")
        try:
            return commit, _apply(workspace, commit, incoming, origin, dry_run, actor, on_write)
        except SettledChanged:
            continue  # a suite not read was edited meanwhile: read the commit again
    raise WorkspaceChanged(
        "the workspace kept changing while syncing; nothing was synced: check for changes again"
    )


def _apply(
    workspace: Workspace,
    commit: str,
    incoming: Incoming,
    origin: str,
    dry_run: bool,
    actor: User | None,
    on_write: Callable[[], None] | None = None,
) -> SyncReport:
    with read_transaction() if dry_run else transaction.atomic():
        if on_write is not None and not dry_run:
            on_write()
        report = sync_workspace_files(workspace, incoming, origin, dry_run=dry_run, actor=actor)
        if not dry_run:
            Workspace.objects.filter(pk=workspace.pk).update(base_commit=commit)
            workspace.base_commit = commit
            detail = f"{len(report.conflicts)} conflicts" if report.conflicts else ""
            record_activity(workspace, actor, ActivityRecord.Action.SYNCED, commit[:12], detail)
    return report


def _still_checked(workspace: Workspace, checked: str) -> str:
    """`checked`, when the followed branch is still there. Raises GitError."""
    tip = followed_commit(workspace)
    if checked != tip:
        where = workspace.repository_branch or "HEAD"
        raise git_repository.GitError(
            f"{where} is at {tip[:12]}, not at the commit checked ({checked[:12]!r}): "
            "check for changes again"
        )
    return tip


def _stored_texts(
    found: Discovery,
    tree: MappingTree,
    profiles: dict[str, SuiteProfile],
    reads: dict[str, ReadFiles],
) -> dict[str, str]:
    """The texts an import would store: configs, the files cases read (by the profile of the
    suite each file is, else the one its spelling gives it), CSV files. Every path the
    cases of a suite that settles alone tried to read goes in `reads` (settled.py)."""
    texts: dict[str, str] = {}
    for path, source in found.configs.items():
        try:
            texts[path] = source.decode("utf-8")  # BOM kept: written back as read
        except UnicodeDecodeError:
            continue  # skipped, as an import skips it
    headers = {eval_file.path: eval_file.contents.header for eval_file in found.eval_files}
    for eval_file in found.eval_files:
        contents = eval_file.contents
        profile = profiles.get(eval_file.path) or profile_for_file(contents.cases_key)
        header = headers.get(eval_file.referenced_by or "", contents.header)
        recording = RecordingFiles(tree, profile.name)
        texts.update(profile.files_read(eval_file, header, recording))
        if settles_alone(eval_file):
            reads[eval_file.path] = recording.read
        if contents.format in READ_ONLY_FORMATS:
            text = tree.read_text(eval_file.path)
            if text is not None:
                texts[eval_file.path] = text
    return texts

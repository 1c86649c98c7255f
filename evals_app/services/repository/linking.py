"""Linking a repository as a job, the worker's side (docs/sync.md, "Remotes"; docs/jobs.md):
clone the repository and show what the link would change (suites added and removed, cases
removed with their review data); link only once the owner confirms the commit it showed.
Following another branch or folder of a linked repository goes the same way. Asking for it is
link_requests.py.
"""

from __future__ import annotations

import base64
import copy
import shutil
from pathlib import Path
from typing import Any

from django.db.models import Count

from ...models import Case, Job, RepositoryRemote, ReviewStatus, Workspace
from ..imports.folders import ImportFailed
from ..jobs.leftovers import scratch_folder
from ..jobs.progress import Progress
from ..jobs.running import OperationRefused
from . import git as git_repository
from .credentials import CredentialError
from .remotes import LinkRefused, fetch_linked_branch, fetch_remote, link_checked, remote_of
from .sync import NotLinked, sync_repository
from .three_way import OUTCOME_KINDS, REMOVED, SyncReport

REFUSALS = (LinkRefused, git_repository.GitError, NotLinked, ImportFailed, CredentialError)
LINES_SHOWN = 100


def link_repository(job: Job, progress: Progress) -> dict[str, Any]:
    """The job: preview the link, or apply it when it names the commit its preview showed."""
    workspace = job.workspace
    assert workspace is not None
    arguments = job.arguments
    commit = arguments.get("commit")
    try:
        if arguments.get("relink"):
            return _relink(job, workspace, commit, progress)
        remote = _remote(workspace, arguments)
        if commit is None:
            return _preview(job, workspace, remote, arguments["folder"], progress)
        commit, report = link_checked(
            workspace,
            remote,
            arguments["folder"],
            job.requested_by,
            checked=commit,
            progress=progress,
        )
    except REFUSALS as error:
        raise OperationRefused(f"The repository was not linked: {error}") from None
    counts = ", ".join(f"{report.counts[kind]} {kind}" for kind in OUTCOME_KINDS)
    return _result(
        f"Linked {remote.url} at {commit[:12]}: {counts}.", workspace, _lines(workspace, report)
    )


def _remote(workspace: Workspace, arguments: dict[str, Any]) -> RepositoryRemote:
    """The remote a link job names, unsaved (its credential as checked when it was asked)."""
    return RepositoryRemote(
        workspace=workspace,
        url=arguments["url"],
        branch=arguments["branch"],
        credential_kind=arguments["credential_kind"],
        credential=base64.b64decode(arguments["credential"]),
    )


def _preview(
    job: Job, workspace: Workspace, remote: RepositoryRemote, folder: str, progress: Progress
) -> dict[str, Any]:
    clone = scratch_folder(job, "link-preview")  # removed when the preview ends
    try:
        progress(0, 3, "steps: fetching the repository")
        tip = fetch_linked_branch(clone, remote, folder)
        linked = copy.copy(workspace)
        linked.repository_path = str(clone)
        linked.repository_folder = folder
        linked.repository_branch = remote.branch
        linked.base_commit = tip
        commit, report = sync_repository(linked, dry_run=True, progress=progress)
    finally:
        shutil.rmtree(clone, ignore_errors=True)
    where = f"{remote.url} ({remote.branch}{', ' + folder if folder else ''})"
    return _preview_result(workspace, f"Linking {where} would bring in", commit, report)


def _relink(
    job: Job, workspace: Workspace, commit: str | None, progress: Progress
) -> dict[str, Any]:
    """Follow another branch or folder of the remote: a preview, or applied at `commit`."""
    remote = remote_of(workspace)
    if remote is None:
        raise LinkRefused("The workspace is no longer linked to a repository by URL.")
    branch, folder = job.arguments["branch"], job.arguments["folder"]
    fetch_remote(workspace)
    repository = Path(workspace.repository_path)
    git_repository.check_branch_name(repository, branch)
    tip = git_repository.branch_commit(repository, branch)
    if tip is None:
        raise LinkRefused(f"The repository has no branch {branch!r}.", "branch")
    if folder and not git_repository.list_files(repository, tip, folder):
        raise LinkRefused(f"Branch {branch!r} has no folder {folder!r}.", "folder")
    following = copy.copy(workspace)
    following.repository_branch, following.repository_folder = branch, folder
    if commit is None:
        found, report = sync_repository(following, dry_run=True, progress=progress)
        return _preview_result(
            workspace,
            f"Following {branch}{', ' + folder if folder else ''} would bring in",
            found,
            report,
        )

    def save_branch() -> None:
        RepositoryRemote.objects.filter(pk=remote.pk).update(branch=branch)
        following.save(update_fields=["repository_branch", "repository_folder", "updated_at"])

    found, report = sync_repository(
        following, checked=commit, actor=job.requested_by, progress=progress, on_write=save_branch
    )
    counts = ", ".join(f"{report.counts[kind]} {kind}" for kind in OUTCOME_KINDS)
    return _result(
        f"Now following {branch} at {found[:12]}: {counts}.", workspace, _lines(workspace, report)
    )


def _preview_result(
    workspace: Workspace, opening: str, commit: str, report: SyncReport
) -> dict[str, Any]:
    removed = [o for o in report.outcomes if o.kind == REMOVED]
    reviewed = _review_data(workspace, removed)
    counts = ", ".join(f"{report.counts[kind]} {kind}" for kind in OUTCOME_KINDS)
    summary = (
        f"{opening} commit {commit[:12]}: {len(report.suites_added)} suites added, "
        f"{len(report.suites_removed)} removed; cases {counts}; {len(reviewed)} of the "
        f"{len(removed)} cases removed have review data. Nothing is linked until you confirm."
    )
    lines = [f"Suite added: {path}" for path in report.suites_added]
    lines += [f"Suite removed: {path}" for path in report.suites_removed]
    lines += [
        f"Case removed: {o.suite_path} {o.case_id}"
        + (
            f" ({reviewed[(o.suite_path, o.case_id)]})"
            if (o.suite_path, o.case_id) in reviewed
            else ""
        )
        for o in removed
    ]
    lines += _lines(workspace, report, removed=False)
    result = _result(summary, workspace, lines)
    result["link_commit"] = commit
    return result


def _review_data(workspace: Workspace, removed: list[Any]) -> dict[tuple[str, str], str]:
    """The review data of each case of `removed` that has any, in words: its status past
    draft, its review decisions, its comment threads."""
    wanted = {(o.suite_path, o.case_id) for o in removed}
    if not wanted:
        return {}
    rows = (
        Case.objects.filter(suite__workspace=workspace, case_id__in={c for _, c in wanted})
        .values("suite__path", "case_id", "status")
        .annotate(
            decisions=Count("review_events", distinct=True),
            comment_threads=Count("threads", distinct=True),
        )
    )
    found: dict[tuple[str, str], str] = {}
    for row in rows:
        key = (row["suite__path"], row["case_id"])
        if key not in wanted:
            continue
        words = []
        if row["status"] != ReviewStatus.DRAFT:
            words.append(ReviewStatus(row["status"]).label.lower())
        if row["decisions"]:
            words.append(f"{row['decisions']} review events")
        if row["comment_threads"]:
            words.append(f"{row['comment_threads']} comment threads")
        if words:
            found[key] = ", ".join(words)
    return found


def _lines(workspace: Workspace, report: SyncReport, *, removed: bool = True) -> list[str]:
    lines = [f"Conflict: {o.suite_path} {o.case_id}" for o in report.conflicts]
    if removed:
        lines += [
            f"Removed: {o.suite_path} {o.case_id}" for o in report.outcomes if o.kind == REMOVED
        ]
    return lines + [f"Skipped {path}: {why}" for path, why in report.skipped]


def _result(summary: str, workspace: Workspace, lines: list[str]) -> dict[str, Any]:
    return {
        "summary": summary,
        "links": [{"label": "Open the workspace", "url": workspace.get_absolute_url()}],
        "lines": lines[:LINES_SHOWN],
        "more_lines": max(len(lines) - LINES_SHOWN, 0),
    }

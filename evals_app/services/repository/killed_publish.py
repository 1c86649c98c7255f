"""What a publish job whose worker was killed left behind, in words for its page (docs/jobs.md,
"A killed worker"; docs/sync.md, "Order of the steps").

A publish commits the database (the bases move, the publish is recorded as pending) before it
pushes and moves the branch, so a kill can land between the two: the remote may hold the
publish's commit while the job never said so. The commit the publish recorded is the app's own;
whether the branch holds it says whether it landed. The publish is finished (or undone) here as
the next check or publish would, so the page tells what is now true.
"""

from __future__ import annotations

from pathlib import Path

from ...models import ActivityRecord, Job, RepositoryRemote
from ..imports.folders import ImportFailed
from . import git as git_repository
from . import pending_publish
from .credentials import CredentialError, transport_for
from .pending_publish import PendingPublish
from .remotes import fetch_remote, remote_of
from .sync import NotLinked

REFUSALS = (git_repository.GitError, CredentialError, NotLinked, ImportFailed)
STOPPED = "The worker running this publish stopped before it finished (it was killed or crashed)."


def killed_publish_report(job: Job) -> str | None:
    """The error a killed publish job shows: what landed (the branch and the new base), or
    that nothing was published. None when the job has no workspace any more."""
    workspace = job.workspace
    if workspace is None or not workspace.linked:
        return None
    workspace.refresh_from_db()
    if not workspace.pending_publish:
        return _finished_or_not(job)
    pending = PendingPublish.from_json(workspace.pending_publish)
    remote = remote_of(workspace)
    where = f"branch {pending.branch}" + (" of the remote" if remote else "")
    try:
        landed = _branch_holds(Path(workspace.repository_path), remote, pending)
        # As the next check or publish would: push what was not pushed, then finish the
        # publish when the branch holds its commit, or undo it when the branch moved.
        fetch_remote(workspace)
        pending_publish.settle(workspace)
    except REFUSALS as error:
        return (
            f"{STOPPED} Its commit {pending.commit[:12]} for {where} was recorded, but whether "
            f"it landed could not be read ({error}); the next Check for changes or Publish "
            "finishes it, or undoes it when the branch moved."
        )
    workspace.refresh_from_db()
    if workspace.base_commit != pending.commit:
        return (
            f"{STOPPED} Nothing was published: {where} had moved, so its commit "
            f"{pending.commit[:12]} was not placed and the workspace's base is back at "
            f"{workspace.base_commit[:12]}. Check for changes, then publish again."
        )
    if remote is not None:
        RepositoryRemote.objects.filter(pk=remote.pk).update(pushed_branch=pending.branch)
    when = (
        "before the worker stopped"
        if landed
        else "when the job was marked failed, as the next check would have placed it"
    )
    return (
        f"{STOPPED} Its commit {pending.commit[:12]} landed on {where} ({when}); the "
        f"workspace's base is now {pending.commit[:12]}."
    )


def _branch_holds(
    repository: Path, remote: RepositoryRemote | None, pending: PendingPublish
) -> bool:
    """Whether the publish's branch (the remote's, fetched first) is at its commit, before
    anything is pushed or moved."""
    if remote is not None:
        with transport_for(remote) as transport:
            git_repository.fetch_branches(repository, remote.url, transport)
    return git_repository.branch_commit(repository, pending.branch) == pending.commit


def _finished_or_not(job: Job) -> str | None:
    """No publish is pending: either it finished before the kill (its activity record says
    so) or it never wrote the database (the default message of a killed job holds)."""
    published = ActivityRecord.objects.filter(
        workspace=job.workspace,
        action=ActivityRecord.Action.PUBLISHED,
        created_at__gte=job.started_at or job.created_at,
    ).last()
    if published is None:
        return None
    return (
        f"{STOPPED} The publish had landed: commit {published.subject} "
        f"{published.detail}; the workspace's base is {published.subject}."
    )

"""The last step of a publish: moving the branch once the database holds the publish.

A publish commits the database first (the bases move to the new commit, and the workspace
records the publish as pending), then moves the branch with its expected old value. A crash
in between leaves the record; the next publish or sync finds it and finishes the move, or,
when the branch has moved elsewhere, puts the bases back as they were, so the database never
claims a publish the repository does not hold (docs/sync.md, "Publishing").
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from ...models import ActivityRecord, Case, Suite, Workspace, WorkspaceFile
from ..workspaces.activity import record_activity
from . import git as git_repository
from .settled import unsettle

# (primary key, base before the publish, base the publish set)
BaseChange = tuple[int, Any, Any]


@dataclass
class PendingPublish:
    """What a publish changed in the database, and where its commit goes."""

    commit: str
    branch: str
    expected: str | None  # the branch's commit when the publish read it; None: no branch
    base: str  # the base commit before the publish (the commit's parent)
    previous_branch: str
    actor: int | None = None
    cases: list[BaseChange] = field(default_factory=list)
    suites: list[BaseChange] = field(default_factory=list)
    files: list[BaseChange] = field(default_factory=list)
    # (suite, [source_text, base_source_text, source_digest] before, after): what suites are
    # written from
    texts: list[BaseChange] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, stored: dict[str, Any]) -> PendingPublish:
        pending = cls(**stored)
        for name in ("cases", "suites", "files"):
            setattr(pending, name, [tuple(change) for change in getattr(pending, name)])
        return pending


class PublishUndone(Exception):
    """The branch could not be moved to the publish's commit; the bases are as before it."""


def place(repository: Path, workspace_pk: int, pending: PendingPublish) -> None:
    """Move the branch to the pending commit and record the publish; when the branch moved
    elsewhere (or cannot be moved), undo the publish's bases and raise PublishUndone."""
    try:
        git_repository.move_branch(repository, pending.branch, pending.commit, pending.expected)
    except git_repository.GitError as error:
        # Another process may have finished this very publish (a sync's repair) meanwhile.
        if _branch_at(repository, pending) != pending.commit:
            undo(workspace_pk, pending)
            raise PublishUndone(
                f"the commit {pending.commit[:12]} could not be placed on branch "
                f"{pending.branch!r} ({error}); nothing was published: sync with the branch "
                "and publish again"
            ) from None
    _finish(workspace_pk, pending)


def settle(workspace: Workspace) -> None:
    """Finish or undo a publish a crash left half done (`Workspace.pending_publish`)."""
    stored = Workspace.objects.filter(pk=workspace.pk).values_list("pending_publish", flat=True)
    record = stored.first()
    if not record:
        return
    pending = PendingPublish.from_json(record)
    try:
        if _branch_at(Path(workspace.repository_path), pending) == pending.commit:
            _finish(workspace.pk, pending)
        else:
            place(Path(workspace.repository_path), workspace.pk, pending)
    except PublishUndone:
        pass  # the bases are back at the base commit: the sync or publish goes on from there
    refreshed = Workspace.objects.get(pk=workspace.pk)
    workspace.base_commit = refreshed.base_commit
    workspace.repository_branch = refreshed.repository_branch


def _branch_at(repository: Path, pending: PendingPublish) -> str | None:
    try:
        return git_repository.branch_commit(repository, pending.branch)
    except git_repository.GitError:
        return None


def _finish(workspace_pk: int, pending: PendingPublish) -> None:
    with transaction.atomic():
        locked = Workspace.objects.select_for_update().get(pk=workspace_pk)
        if not _is_current(locked, pending):
            return  # finished by another process already
        locked.pending_publish = None
        locked.save(update_fields=["pending_publish", "updated_at"])
        actor = User.objects.filter(pk=pending.actor).first() if pending.actor else None
        record_activity(
            locked,
            actor,
            ActivityRecord.Action.PUBLISHED,
            pending.commit[:12],
            f"on branch {pending.branch}",
        )


def undo(workspace_pk: int, pending: PendingPublish) -> None:
    """The bases as they were before the publish, where the publish's are still in place."""
    with transaction.atomic():
        locked = Workspace.objects.select_for_update().get(pk=workspace_pk)
        if not _is_current(locked, pending):
            return
        for model, column, changes in (
            (Case, "base_document", pending.cases),
            (Suite, "base_document", pending.suites),
            (WorkspaceFile, "base_text", pending.files),
        ):
            current = dict(
                model.objects.filter(pk__in=[pk for pk, _, _ in changes]).values_list("pk", column)
            )
            for pk, before, after in changes:
                if pk in current and current[pk] == after:
                    model.objects.filter(pk=pk).update(**{column: before})
        for pk, before, after in pending.texts:
            Suite.objects.filter(pk=pk, source_text=after[0], base_source_text=after[1]).update(
                source_text=before[0], base_source_text=before[1], source_digest=before[2]
            )
        # What the publish settled of these suites no longer holds (settled.py).
        touched = {pk for pk, _, _ in pending.texts} | {pk for pk, _, _ in pending.suites}
        cases = Case.objects.filter(pk__in=[pk for pk, _, _ in pending.cases])
        unsettle(touched | set(cases.values_list("suite_id", flat=True)))
        locked.base_commit = pending.base
        locked.repository_branch = pending.previous_branch
        locked.pending_publish = None
        locked.save(update_fields=["base_commit", "repository_branch", "pending_publish"])


def _is_current(locked: Workspace, pending: PendingPublish) -> bool:
    record: dict[str, Any] | None = locked.pending_publish
    return record is not None and record.get("commit") == pending.commit

"""A workspace's activity: who changed, commented on or reviewed what, newest first.

Case edits, comments and review steps are read from their own rows (revisions, comments,
review events); every other change is an ActivityRecord written by the service that makes it
(`record_activity`), in the same transaction as the change.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from heapq import merge
from itertools import islice

from django.contrib.auth.models import User

from ...models import (
    ActivityRecord,
    Case,
    Comment,
    ReviewEvent,
    Revision,
    Suite,
    Workspace,
    WorkspaceFile,
)

Action = ActivityRecord.Action
CREATION_SUMMARIES = ("created", "duplicated from ")


@dataclass(frozen=True)
class ActivityItem:
    """One thing that happened: `verb` then `subject` (linked to `case`, `suite` or `file`
    when that still exists), in the suite `where`, with an optional `detail`."""

    at: datetime
    actor: User | None
    verb: str
    subject: str = ""
    detail: str = ""
    where: str = ""
    case: Case | None = None
    suite: Suite | None = None
    file: WorkspaceFile | None = None


def record_activity(
    workspace: Workspace | int,
    actor: User | None,
    action: str,
    subject: str = "",
    detail: str = "",
    *,
    suite: Suite | None = None,
    case: Case | None = None,
    file: WorkspaceFile | None = None,
) -> ActivityRecord:
    """Record that `actor` did `action` (an ActivityRecord.Action) to `subject` in `workspace`
    (the workspace or its primary key)."""
    workspace_id = workspace if isinstance(workspace, int) else workspace.pk
    return ActivityRecord.objects.create(
        workspace_id=workspace_id,
        actor=actor,
        action=action,
        subject=subject,
        detail=detail,
        suite=suite,
        case=case,
        file=file,
    )


def workspace_activity(workspace: Workspace, limit: int = 50) -> list[ActivityItem]:
    """The latest `limit` things that happened in `workspace` (four queries)."""
    in_workspace = {"case__suite__workspace": workspace}
    related = ("author", "case__suite")
    revisions = (
        _revision_item(r)
        for r in Revision.objects.filter(**in_workspace)
        .exclude(author=None)
        .select_related(*related)
        .order_by("-created_at", "-pk")[:limit]
    )
    comments = (
        _case_item(
            c.created_at,
            c.author,
            f"commented on {c.thread.anchor_label} of",
            c.thread.case,
            c.text,
        )
        for c in Comment.objects.filter(thread__case__suite__workspace=workspace)
        .select_related("author", "thread__case__suite")
        .order_by("-created_at", "-pk")[:limit]
    )
    reviews = (
        _case_item(e.created_at, e.actor, e.get_action_display(), e.case, e.note)
        for e in ReviewEvent.objects.filter(**in_workspace)
        .select_related("actor", "case__suite")
        .order_by("-created_at", "-pk")[:limit]
    )
    records = (
        _record_item(record)
        for record in ActivityRecord.objects.filter(workspace=workspace)
        .select_related("actor", "case__suite", "suite", "file")
        .order_by("-created_at", "-pk")[:limit]
    )
    newest_first = merge(
        revisions, comments, reviews, records, key=lambda item: item.at, reverse=True
    )
    return list(islice(newest_first, limit))


def _case_item(
    at: datetime, actor: User | None, verb: str, case: Case, detail: str = ""
) -> ActivityItem:
    return ActivityItem(at, actor, verb, case.case_id, detail, case.suite.path, case=case)


def _revision_item(revision: Revision) -> ActivityItem:
    # Adding, duplicating and pasting a case record its first revision with these summaries
    # (services/cases.py, services/case_editing.py); an imported case's history starts with
    # an authorless "as imported" revision instead.
    created = revision.number == 1 and revision.summary.startswith(CREATION_SUMMARIES)
    verb = "created case" if created else "changed"
    return _case_item(revision.created_at, revision.author, verb, revision.case, revision.summary)


def _record_item(record: ActivityRecord) -> ActivityItem:
    case = record.case
    return ActivityItem(
        record.created_at,
        record.actor,
        record.get_action_display(),
        record.subject,
        record.detail,
        where=case.suite.path if case is not None else "",
        case=case,
        suite=record.suite,
        file=record.file,
    )

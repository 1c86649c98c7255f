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
from operator import itemgetter
from typing import TypeVar

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet

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
from ...permissions import WorkspaceAccess, steps_seen_by

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


# Where an item stands in the feed: its time, then its kind (the rank of its source below),
# then its row; unique, so a page ends at an exact place even when two things share a time.
ActivityKey = tuple[datetime, int, int]
REVISIONS, COMMENTS, REVIEWS, RECORDS = range(4)


@dataclass(frozen=True)
class ActivityPage:
    """A page of activity, newest first, and where the next (older) page starts (None: this
    is the oldest)."""

    items: list[ActivityItem]
    older: ActivityKey | None


def workspace_activity(
    access: WorkspaceAccess, limit: int = 50, older_than: ActivityKey | None = None
) -> ActivityPage:
    """The latest `limit` things that happened in the workspace of `access` before
    `older_than` (the latest of all when None), as its user may see them (blind review), in
    four queries however long the workspace's past."""
    workspace = access.workspace
    in_workspace = {"case__suite__workspace": workspace}
    related = ("author", "case__suite")
    revisions = (
        (_key(r.created_at, REVISIONS, r.pk), _revision_item(r))
        for r in _older(
            Revision.objects.filter(**in_workspace).exclude(author=None),
            REVISIONS,
            older_than,
        ).select_related(*related)[: limit + 1]
    )
    comments = (
        (
            _key(c.created_at, COMMENTS, c.pk),
            _case_item(
                c.created_at,
                c.author,
                f"commented on {c.thread.anchor_label} of",
                c.thread.case,
                c.text,
            ),
        )
        for c in _older(
            Comment.objects.filter(thread__case__suite__workspace=workspace),
            COMMENTS,
            older_than,
        ).select_related("author", "thread__case__suite")[: limit + 1]
    )
    reviews = (
        (
            _key(e.created_at, REVIEWS, e.pk),
            _case_item(e.created_at, e.actor, e.get_action_display(), e.case, e.note),
        )
        for e in _older(
            steps_seen_by(access, ReviewEvent.objects.filter(**in_workspace)), REVIEWS, older_than
        ).select_related("actor", "case__suite")[: limit + 1]
    )
    records = (
        (_key(record.created_at, RECORDS, record.pk), _record_item(record))
        for record in _older(
            ActivityRecord.objects.filter(workspace=workspace), RECORDS, older_than
        ).select_related("actor", "case__suite", "suite", "file")[: limit + 1]
    )
    newest_first = merge(revisions, comments, reviews, records, key=itemgetter(0), reverse=True)
    # One more than shown, to know whether an older page exists.
    keyed = list(islice(newest_first, limit + 1))
    older = keyed[limit - 1][0] if len(keyed) > limit else None
    return ActivityPage([item for _, item in keyed[:limit]], older)


def _key(at: datetime, rank: int, pk: int) -> ActivityKey:
    return (at, rank, pk)


_Row = TypeVar("_Row", Revision, Comment, ReviewEvent, ActivityRecord)


def _older(rows: QuerySet[_Row], rank: int, older_than: ActivityKey | None) -> QuerySet[_Row]:
    """The rows of source `rank` that come after `older_than` in the feed, newest first."""
    if older_than is not None:
        at, cursor_rank, pk = older_than
        after = Q(created_at__lt=at)
        if rank < cursor_rank:
            after |= Q(created_at=at)
        elif rank == cursor_rank:
            after |= Q(created_at=at, pk__lt=pk)
        rows = rows.filter(after)
    return rows.order_by("-created_at", "-pk")


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

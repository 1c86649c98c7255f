"""A workspace's activity: who changed, commented on or reviewed what, newest first."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from heapq import merge
from itertools import islice

from django.contrib.auth.models import User

from ..models import Case, Comment, ReviewEvent, Revision, Workspace


@dataclass(frozen=True)
class ActivityItem:
    """One thing that happened."""

    at: datetime
    actor: User | None
    verb: str
    case: Case
    detail: str = ""


def workspace_activity(workspace: Workspace, limit: int = 50) -> list[ActivityItem]:
    """The latest `limit` changes, comments and review steps in `workspace` (three queries)."""
    in_workspace = {"case__suite__workspace": workspace}
    related = ("author", "case__suite")
    revisions = (
        ActivityItem(r.created_at, r.author, "changed", r.case, r.summary)
        for r in Revision.objects.filter(**in_workspace)
        .exclude(author=None)
        .select_related(*related)
        .order_by("-created_at")[:limit]
    )
    comments = (
        ActivityItem(
            c.created_at,
            c.author,
            f"commented on {c.thread.anchor_label} of",
            c.thread.case,
            c.text,
        )
        for c in Comment.objects.filter(thread__case__suite__workspace=workspace)
        .select_related("author", "thread__case__suite")
        .order_by("-created_at")[:limit]
    )
    reviews = (
        ActivityItem(e.created_at, e.actor, e.get_action_display(), e.case, e.note)
        for e in ReviewEvent.objects.filter(**in_workspace)
        .select_related("actor", "case__suite")
        .order_by("-created_at")[:limit]
    )
    newest_first = merge(revisions, comments, reviews, key=lambda item: item.at, reverse=True)
    return list(islice(newest_first, limit))

"""Assignments through the API: owners assign cases to reviewers; a reviewer reads their queue
(docs/api.md)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.http import HttpRequest
from ninja import Query, Router, Schema, Status

from ..permissions import Capability
from ..services.review.assignments import (
    QUEUE_ORDER,
    AssignmentError,
    assign_cases,
    queue_item,
    queue_progress,
    queue_rows,
    reviewers_of,
)
from .auth import api_user
from .cursors import BadCursor
from .errors import WORKSPACE_ERRORS, Message
from .lookups import access_to, suite_at
from .pages import Page, PageQuery, page_of

router = Router(tags=["review"])


class Assignment(Schema):
    """Cases of one suite (by id) for reviewers (by username): every case to each reviewer,
    or with `spread` to one reviewer each, in turn."""

    suite: str
    cases: list[str]
    reviewers: list[str]
    spread: bool = False


class Assigned(Schema):
    """The ids of the cases assigned."""

    assigned: list[str]


@router.post(
    "/workspaces/{slug}/assignments",
    response={200: Assigned, 422: Message, **WORKSPACE_ERRORS},
)
def assign(request: HttpRequest, slug: str, assignment: Assignment) -> Any:
    """Assign cases to reviewers (owners only; reviewers are the workspace's owners and
    reviewers)."""
    access = access_to(request, slug, Capability.MANAGE)
    suite = suite_at(access, assignment.suite)
    found = dict(suite.cases.filter(case_id__in=assignment.cases).values_list("case_id", "pk"))
    missing = [case_id for case_id in assignment.cases if case_id not in found]
    if missing:
        return Status(422, Message(message=f"No case {', '.join(missing)} in {suite.path}."))
    by_name: dict[str, User] = {user.username: user for user in reviewers_of(access.workspace.pk)}
    strangers = [name for name in assignment.reviewers if name not in by_name]
    if strangers:
        return Status(422, Message(message=f"Not a reviewer here: {', '.join(strangers)}."))
    try:
        result = assign_cases(
            suite,
            list(found.values()),
            [by_name[name].pk for name in assignment.reviewers],
            api_user(request),
            spread=assignment.spread,
        )
    except AssignmentError as refusal:
        return Status(422, Message(message=str(refusal)))
    return Assigned(assigned=result.done)


class QueuedCase(Schema):
    """A case of the caller's queue."""

    workspace: str
    suite: str
    id: str
    status: str
    waiting: bool
    reviewed: bool


class QueuePage(Page[QueuedCase]):
    """A page of the caller's queue, with how many of all its cases they reviewed and how
    many wait for them."""

    reviewed: int
    waiting: int


@router.get("/queue", response={200: QueuePage, 400: Message, 401: Message})
def queue(request: HttpRequest, page: Query[PageQuery]) -> Any:
    """The cases assigned to the caller, in queue order (workspace, suite, the suite's
    order), a page at a time, with their progress over the whole queue."""
    user = api_user(request)
    rows: list[Any]  # annotated rows (reviewed, status)
    try:
        rows, total, following = page_of(
            queue_rows(user),
            QUEUE_ORDER,
            lambda row: (row.case.suite.workspace.name, row.case.suite.path, row.case.position),
            (str, str, int),
            page,
        )
    except BadCursor as error:
        return Status(400, Message(message=str(error)))
    _, reviewed, waiting = queue_progress(user)
    items = [queue_item(row) for row in rows]
    return QueuePage(
        items=[
            QueuedCase(
                workspace=item.case.suite.workspace.slug,
                suite=item.case.suite.path,
                id=item.case.case_id,
                status=item.status,
                waiting=item.waiting,
                reviewed=item.reviewed,
            )
            for item in items
        ],
        total=total,
        next=following,
        reviewed=reviewed,
        waiting=waiting,
    )

"""`GET /api/v1/workspaces`: the caller's workspaces and their role in each; `GET …/suites`:
a workspace's suites. Both a page at a time (docs/api.md)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest
from ninja import Query, Router, Schema, Status

from ..models import Case, Membership, Suite
from ..permissions import Capability, visible_workspaces
from .auth import api_user
from .cursors import BadCursor
from .errors import WORKSPACE_ERRORS, Message
from .lookups import access_to
from .pages import Page, PageQuery, page_of

router = Router(tags=["workspaces"])


class WorkspaceOut(Schema):
    """A workspace; `role` is owner, editor, reviewer or viewer (null for a superuser who is
    not a member)."""

    name: str
    slug: str
    role: str | None


class SuiteOut(Schema):
    """A suite: its path in the workspace, its number of cases, and whether its cases are
    read-only (a CSV file, a folder of cases, scenarios; docs/formats.md)."""

    path: str
    cases: int
    read_only: bool


@router.get("/workspaces", response={200: Page[WorkspaceOut], 400: Message, 401: Message})
def list_workspaces(request: HttpRequest, page: Query[PageQuery]) -> Any:
    """The workspaces the caller belongs to (every workspace, for a superuser), by name."""
    user = api_user(request)
    roles = Membership.objects.filter(workspace=OuterRef("pk"), user_id=user.pk)
    workspaces = visible_workspaces(user).annotate(
        my_role=Subquery(roles.order_by().values("role")[:1])
    )
    rows: list[Any]  # annotated rows (my_role), which django-stubs cannot follow here
    try:
        rows, total, following = page_of(
            workspaces, ("name",), lambda row: (row.name,), (str,), page
        )
    except BadCursor as error:
        return Status(400, Message(message=str(error)))
    items = [WorkspaceOut(name=w.name, slug=w.slug, role=w.my_role) for w in rows]
    return Page[WorkspaceOut](items=items, total=total, next=following)


@router.get("/workspaces/{slug}/suites", response={200: Page[SuiteOut], **WORKSPACE_ERRORS})
def list_suites(request: HttpRequest, slug: str, page: Query[PageQuery]) -> Any:
    """The workspace's suites, by path, each with its number of cases."""
    access = access_to(request, slug, Capability.VIEW)
    counted = (
        Case.objects.filter(suite=OuterRef("pk"))
        .order_by()
        .values("suite")
        .annotate(n=Count("*"))
        .values("n")
    )
    suites = (
        Suite.objects.filter(workspace=access.workspace)
        .only("path", "file_format", "workspace")
        .annotate(case_count=Coalesce(Subquery(counted), 0))
    )
    rows: list[Any]  # annotated rows (case_count)
    try:
        rows, total, following = page_of(suites, ("path",), lambda row: (row.path,), (str,), page)
    except BadCursor as error:
        return Status(400, Message(message=str(error)))
    items = [SuiteOut(path=s.path, cases=s.case_count, read_only=s.read_only) for s in rows]
    return Page[SuiteOut](items=items, total=total, next=following)

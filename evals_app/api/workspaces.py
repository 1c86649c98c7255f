"""`GET /api/v1/workspaces`: the caller's workspaces and their role in each."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router, Schema

from ..permissions import visible_workspace_roles
from .auth import api_user
from .errors import Message

router = Router(tags=["workspaces"])


class WorkspaceOut(Schema):
    """A workspace; `role` is owner, editor, reviewer or viewer (null for a superuser who is
    not a member)."""

    name: str
    slug: str
    role: str | None


@router.get("/workspaces", response={200: list[WorkspaceOut], 401: Message})
def list_workspaces(request: HttpRequest) -> list[WorkspaceOut]:
    """The workspaces the caller belongs to (every workspace, for a superuser), by name."""
    return [
        WorkspaceOut(name=name, slug=slug, role=role)
        for name, slug, role in visible_workspace_roles(api_user(request))
    ]

"""Finding what an API request names: a workspace by slug, a suite by path, a case by id,
with the access the endpoint needs (the pages' permission checks, evals_app/permissions.py)."""

from __future__ import annotations

from django.http import Http404, HttpRequest

from ..models import Case, Suite
from ..permissions import Capability, WorkspaceAccess, workspace_access
from .auth import api_user


def access_to(request: HttpRequest, slug: str, needs: Capability) -> WorkspaceAccess:
    """The caller's access to workspace `slug`: 404 outside their workspaces, 403 when their
    role does not allow `needs`."""
    return workspace_access(api_user(request), slug, needs)


def suite_at(access: WorkspaceAccess, path: str) -> Suite:
    """The suite at `path` in the workspace, or 404."""
    suite = Suite.objects.filter(workspace=access.workspace, path=path).first()
    if suite is None:
        raise Http404(f"No suite at {path!r} in {access.workspace.name}.")
    suite.workspace = access.workspace
    return suite


def case_at(
    request: HttpRequest, slug: str, suite_path: str, case_id: str, needs: Capability
) -> tuple[WorkspaceAccess, Case]:
    """The case `case_id` of the suite at `suite_path`, its suite and workspace loaded."""
    access = access_to(request, slug, needs)
    suite = suite_at(access, suite_path)
    case = Case.objects.filter(suite=suite, case_id=case_id).first()
    if case is None:
        raise Http404(f"No case {case_id!r} in {suite_path}.")
    case.suite = suite
    return access, case

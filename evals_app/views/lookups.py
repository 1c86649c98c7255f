"""Finding a case for a request: in the user's workspace, with the access it needs."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from ..models import Case, Suite
from ..permissions import Capability, WorkspaceAccess, workspace_access
from ..services.documents import with_conversation
from .htmx_request import HtmxHttpRequest


def case_or_404(
    request: HtmxHttpRequest,
    slug: str,
    suite_pk: int,
    case_pk: int,
    needs: Capability = Capability.VIEW,
    *,
    conversation: bool = False,
) -> tuple[WorkspaceAccess, Case]:
    """The case, its suite and workspace loaded; 404 outside the user's workspaces, 403 when
    their role does not allow `needs`. With `conversation`, its turns come prefetched."""
    access = workspace_access(request.user, slug, needs)
    suite = get_object_or_404(Suite, workspace=access.workspace, pk=suite_pk)
    cases = with_conversation(Case.objects.all()) if conversation else Case.objects.all()
    case = get_object_or_404(cases, suite=suite, pk=case_pk)
    suite.workspace = access.workspace
    case.suite = suite
    return access, case

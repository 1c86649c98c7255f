"""Finding a case for a request: in the user's workspace, with the access it needs."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from ..models import Case
from ..permissions import Capability, WorkspaceAccess, workspace_access
from .htmx_request import HtmxHttpRequest


def case_or_404(
    request: HtmxHttpRequest,
    slug: str,
    suite_pk: int,
    case_pk: int,
    needs: Capability = Capability.VIEW,
) -> tuple[WorkspaceAccess, Case]:
    """The case, its suite and workspace loaded; 404 outside the user's workspaces, 403 when
    their role does not allow `needs`."""
    access = workspace_access(request.user, slug, needs)
    # The suite comes with the case (one query: the preview runs this on every keystroke).
    cases = Case.objects.select_related("suite")
    case = get_object_or_404(
        cases, pk=case_pk, suite__pk=suite_pk, suite__workspace=access.workspace
    )
    case.suite.workspace = access.workspace
    return access, case

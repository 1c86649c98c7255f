"""Renaming and deleting a suite (an eval file), for the workspace's owners and editors."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from ..forms import SuitePathForm
from ..models import Suite
from ..permissions import Capability, WorkspaceAccess, signed_in_user, workspace_access
from ..services.suites import delete_suite, rename_suite
from ..services.workspace_paths import WorkspacePathError
from .htmx_request import HtmxHttpRequest


@require_http_methods(["GET", "POST"])
def suite_rename(request: HtmxHttpRequest, slug: str, suite_pk: int) -> HttpResponse:
    """A form to move the eval file to another path; its cases go with it."""
    access, suite = _editable_suite(request, slug, suite_pk)
    data = request.POST if request.method == "POST" else None
    form = SuitePathForm(data, initial={"path": suite.path})
    if form.is_bound and form.is_valid():
        old_path = suite.path
        try:
            rename_suite(suite, form.cleaned_data["path"], signed_in_user(request))
        except WorkspacePathError as error:
            form.add_error("path", error.message)
        else:
            messages.success(request, f"Renamed {old_path} to {suite.path}.")
            return redirect("suite_detail", access.workspace.slug, suite.pk)
    context = {"workspace": access.workspace, "access": access, "suite": suite, "form": form}
    status = 422 if form.is_bound else 200
    return render(request, "evals/suite_rename.html", context, status=status)


@require_http_methods(["GET", "POST"])
def suite_delete(request: HtmxHttpRequest, slug: str, suite_pk: int) -> HttpResponse:
    """Ask to confirm (GET), then delete the eval file with its cases (POST)."""
    access, suite = _editable_suite(request, slug, suite_pk)
    if request.method == "POST":
        count = delete_suite(suite, signed_in_user(request))
        messages.success(request, f"Deleted {suite.path} and its {count} case{'s' * (count != 1)}.")
        return redirect(access.workspace)
    context = {
        "workspace": access.workspace,
        "access": access,
        "suite": suite,
        "case_count": suite.cases.count(),
    }
    return render(request, "evals/suite_delete.html", context)


def _editable_suite(
    request: HtmxHttpRequest, slug: str, suite_pk: int
) -> tuple[WorkspaceAccess, Suite]:
    """A suite the user may edit (404 outside their workspaces, 403 without the role)."""
    access = workspace_access(request.user, slug, Capability.EDIT)
    suite = get_object_or_404(access.workspace.suites, pk=suite_pk)
    suite.workspace = access.workspace
    return access, suite

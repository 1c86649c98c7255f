"""Workspaces from the browser: create one, import one from a .zip, rename or delete one."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ..forms import WorkspaceDeleteForm, WorkspaceForm, WorkspaceImportForm
from ..models import ReviewCriterion
from ..permissions import Capability, WorkspaceAccess, signed_in_user, workspace_access
from ..services.imports.zip_import import zip_limits
from ..services.jobs.requests import JobRefused, ask_import
from ..services.review.approvals import rules_of
from ..services.review.criteria import review_form
from ..services.workspaces.lifecycle import (
    WorkspaceNameError,
    create_workspace,
    delete_workspace,
    rename_workspace,
)
from .htmx_request import HtmxHttpRequest

SETTINGS_PAGE = "evals/workspace_settings.html"
IMPORT_PAGE = "evals/workspace_import.html"


@require_http_methods(["GET", "POST"])
def workspace_create(request: HtmxHttpRequest) -> HttpResponse:
    """A form for a new, empty workspace; its creator becomes its owner."""
    form = WorkspaceForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        try:
            workspace = create_workspace(form.cleaned_data["name"], signed_in_user(request))
        except WorkspaceNameError as error:
            form.add_error("name", error.message)
        else:
            messages.success(request, f"Created {workspace.name}. You are its owner.")
            return redirect(workspace)
    status = 422 if form.is_bound else 200
    return render(request, "evals/workspace_new.html", {"form": form}, status=status)


@require_http_methods(["GET", "POST"])
def workspace_import(request: HtmxHttpRequest) -> HttpResponse:
    """Import a workspace folder uploaded as a .zip, as `import_evals` imports a folder.

    The worker imports it; the post is answered at once with the job's page, which shows
    the import's report (counts, warnings, or every error) when done (docs/jobs.md).
    """
    limits = zip_limits()
    posted = request.method == "POST"
    form = WorkspaceImportForm(*(request.POST, request.FILES) if posted else ())
    context: dict[str, object] = {"form": form, "limits": limits}
    if not posted or not form.is_valid():
        return render(request, IMPORT_PAGE, context, status=422 if form.is_bound else 200)
    archive = form.cleaned_data["archive"]
    try:
        job = ask_import(
            signed_in_user(request),
            archive,
            archive.size or 0,
            archive.name or "",
            form.cleaned_data["name"],
        )
    except JobRefused as refusal:
        form.add_error("archive", str(refusal))
        return render(request, IMPORT_PAGE, context, status=422)
    return redirect(job)


@require_GET
def workspace_settings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The owners' page: rename the workspace, or delete it."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    return render(request, SETTINGS_PAGE, _settings_context(access))


@require_POST
def workspace_rename(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Give the workspace a new name (its address follows the name)."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    form = WorkspaceForm(request.POST)
    if form.is_valid():
        try:
            workspace = rename_workspace(
                access.workspace, form.cleaned_data["name"], signed_in_user(request)
            )
        except WorkspaceNameError as error:
            form.add_error("name", error.message)
        else:
            messages.success(request, f"The workspace is now called {workspace.name}.")
            return redirect(workspace)
    context = _settings_context(access, rename_form=form)
    return render(request, SETTINGS_PAGE, context, status=422)


@require_POST
def workspace_delete(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Delete the workspace and everything in it, once its name is typed to confirm."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    form = WorkspaceDeleteForm(request.POST)
    if form.is_valid():
        try:
            delete_workspace(access.workspace, form.cleaned_data["confirm_name"])
        except WorkspaceNameError as error:
            form.add_error("confirm_name", error.message)
        else:
            messages.success(request, f"Deleted {access.workspace.name}.")
            return redirect("workspace_list")
    context = _settings_context(access, delete_form=form)
    return render(request, SETTINGS_PAGE, context, status=422)


def _settings_context(
    access: WorkspaceAccess,
    rename_form: WorkspaceForm | None = None,
    delete_form: WorkspaceDeleteForm | None = None,
) -> dict[str, object]:
    workspace = access.workspace
    return {
        "workspace": workspace,
        "access": access,
        "rename_form": rename_form or WorkspaceForm(initial={"name": workspace.name}),
        "delete_form": delete_form or WorkspaceDeleteForm(),
        "suite_count": workspace.suites.count(),
        "file_count": workspace.files.count(),
        "review_rules": rules_of(workspace),
        "criteria": review_form(workspace),
        "criterion_kinds": ReviewCriterion.Kind.choices,
    }

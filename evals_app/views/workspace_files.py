"""A workspace's text files: create, upload, edit and delete them."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from ..eval_files.configs import patterns_for
from ..formatting.guideline_patterns import is_guideline
from ..forms import FileForm, UploadForm
from ..models import Workspace, WorkspaceFile
from ..permissions import Capability, WorkspaceAccess, signed_in_user, workspace_access
from ..services.profiles.workspace_formatter import workspace_configs
from ..services.workspaces.files import (
    FileContentError,
    create_file,
    delete_file,
    update_file,
    upload_file,
)
from ..services.workspaces.paths import WorkspacePathError
from .fragments import render_page
from .htmx_request import HtmxHttpRequest
from .workspaces import WORKSPACE_PAGE, workspace_context

FILE_PAGE = "evals/file_form.html"


@require_http_methods(["GET", "POST"])
def file_create(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A page to type in a new file (`?path=` fills in its path); posting it stores the file."""
    workspace = workspace_access(request.user, slug, Capability.EDIT).workspace
    if request.method == "GET":
        form = FileForm(initial={"path": request.GET.get("path", "")})
        return render(request, FILE_PAGE, {"workspace": workspace, "form": form})
    form = FileForm(request.POST)
    if form.is_valid():
        try:
            file = create_file(
                workspace,
                form.cleaned_data["path"],
                form.cleaned_data["text"],
                signed_in_user(request),
            )
        except WorkspacePathError as error:
            form.add_error("path", error.message)
        except FileContentError as error:
            form.add_error("text", error.message)
        else:
            messages.success(request, f"Created {file.path}.")
            return redirect(_files_url(workspace))
    context = {"workspace": workspace, "form": form}
    return render(request, FILE_PAGE, context, status=422)


@require_POST
def file_upload(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Store an uploaded UTF-8 text file."""
    access = workspace_access(request.user, slug, Capability.EDIT)
    workspace = access.workspace
    form = UploadForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            file = upload_file(
                workspace,
                form.cleaned_data["file"],
                form.cleaned_data["path"],
                replace=form.cleaned_data["replace"],
                actor=signed_in_user(request),
            )
        except WorkspacePathError as error:
            form.add_error("path", error.message)
        except FileContentError as error:
            form.add_error("file", error.message)
        else:
            messages.success(request, f"Uploaded {file.path}.")
            return redirect(_files_url(workspace))
    context = workspace_context(access, upload_form=form)
    return render(request, WORKSPACE_PAGE, context, status=422)


@require_http_methods(["GET", "POST"])
def file_edit(request: HtmxHttpRequest, slug: str, file_pk: int) -> HttpResponse:
    """A page to read a file and, for editors, to change its path and text."""
    access = workspace_access(request.user, slug)
    workspace = access.workspace
    file = get_object_or_404(workspace.files, pk=file_pk)
    if request.method == "GET":
        form = FileForm(initial={"path": file.path, "text": file.text})
        return render(request, FILE_PAGE, _file_context(access, file, form))
    access.require(Capability.EDIT)
    form = FileForm(request.POST)
    if form.is_valid():
        try:
            update_file(
                file, form.cleaned_data["path"], form.cleaned_data["text"], signed_in_user(request)
            )
        except WorkspacePathError as error:
            form.add_error("path", error.message)
        except FileContentError as error:
            form.add_error("text", error.message)
        else:
            messages.success(request, f"Saved {file.path}.")
            return redirect(_files_url(workspace))
    file.refresh_from_db()  # the heading names the stored path, not the rejected one
    return render(request, FILE_PAGE, _file_context(access, file, form), status=422)


@require_POST
@vary_on_headers("HX-Request")
def file_delete(request: HtmxHttpRequest, slug: str, file_pk: int) -> HttpResponse:
    """Delete a file; htmx gets the list of files back, a plain form the workspace page."""
    access = workspace_access(request.user, slug, Capability.EDIT)
    workspace = access.workspace
    file = get_object_or_404(workspace.files, pk=file_pk)
    delete_file(file, signed_in_user(request))
    messages.success(request, f"Deleted {file.path}.")
    if request.htmx:
        return render_page(request, WORKSPACE_PAGE, workspace_context(access), partial="files")
    return redirect(_files_url(workspace))


def _file_context(
    access: WorkspaceAccess, file: WorkspaceFile, form: FileForm
) -> dict[str, object]:
    workspace = access.workspace
    return {
        "workspace": workspace,
        "access": access,
        "file": file,
        "form": form,
        "is_guideline": is_guideline(
            file.path, patterns_for(file.path, workspace_configs(workspace))
        ),
    }


def _files_url(workspace: Workspace) -> str:
    return reverse("workspace_detail", args=[workspace.slug]) + "#files"

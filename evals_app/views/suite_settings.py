"""A suite's settings (its top-level fields, its profile), renaming and deleting it: for the
workspace's owners and editors."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from ..eval_files.errors import EvalFileError
from ..forms import SuiteFieldsForm, SuitePathForm, SuiteProfileForm
from ..models import Suite
from ..permissions import Capability, WorkspaceAccess, signed_in_user, workspace_access
from ..services.suite_fields import change_profile, edit_suite_fields, fields_text, has_fields
from ..services.suites import delete_suite, rename_suite
from ..services.workspace_paths import WorkspacePathError
from .htmx_request import HtmxHttpRequest

SETTINGS_PAGE = "evals/suite_settings.html"


@require_http_methods(["GET", "POST"])
def suite_settings(request: HtmxHttpRequest, slug: str, suite_pk: int) -> HttpResponse:
    """The suite's top-level fields as YAML, edited and saved; and its profile (see
    `suite_profile`)."""
    access, suite = _editable_suite(request, slug, suite_pk)
    data = request.POST if request.method == "POST" else None
    form = SuiteFieldsForm(data, initial={"fields_yaml": fields_text(suite)})
    if form.is_bound and not has_fields(suite):
        form.add_error(None, f"A {suite.file_format} file holds only its cases: no fields.")
    elif form.is_bound and form.is_valid():
        try:
            changes = edit_suite_fields(
                suite, form.cleaned_data["fields_yaml"], signed_in_user(request)
            )
        except EvalFileError as error:
            where = f"Line {error.line}: " if error.line is not None else ""
            form.add_error("fields_yaml", f"{where}{error.message}")
        else:
            said = f"Saved the fields of {suite.path}: {changes}." if changes else "No changes."
            messages.success(request, said)
            return redirect("suite_detail", access.workspace.slug, suite.pk)
    profile_form = SuiteProfileForm(initial={"profile": suite.profile})
    return _settings_page(request, access, suite, form, profile_form)


@require_POST
def suite_profile(request: HtmxHttpRequest, slug: str, suite_pk: int) -> HttpResponse:
    """Switch the profile that formats the suite's cases."""
    access, suite = _editable_suite(request, slug, suite_pk)
    profile_form = SuiteProfileForm(request.POST)
    if not profile_form.is_valid():
        form = SuiteFieldsForm(initial={"fields_yaml": fields_text(suite)})
        return _settings_page(request, access, suite, form, profile_form)
    if change_profile(suite, profile_form.cleaned_data["profile"], signed_in_user(request)):
        messages.success(
            request, f"{suite.path} is now formatted by {suite.get_profile_display()}."
        )
    else:
        messages.info(
            request, f"{suite.path} is already formatted by {suite.get_profile_display()}."
        )
    return redirect("suite_detail", access.workspace.slug, suite.pk)


def _settings_page(
    request: HtmxHttpRequest,
    access: WorkspaceAccess,
    suite: Suite,
    form: SuiteFieldsForm,
    profile_form: SuiteProfileForm,
) -> HttpResponse:
    context = {
        "workspace": access.workspace,
        "access": access,
        "suite": suite,
        "form": form,
        "profile_form": profile_form,
        "has_fields": has_fields(suite),
    }
    status = 422 if form.errors or profile_form.errors else 200
    return render(request, SETTINGS_PAGE, context, status=status)


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

"""A suite's settings (its top-level fields, its prompts with the tests they expand to, its
profile), renaming and deleting it: for the workspace's owners and editors."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib import messages
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from ..editor.prompt_rows import PromptFormError, apply_action, rows_from_form
from ..eval_files.errors import EvalFileError
from ..forms import SuiteFieldsForm, SuitePathForm, SuiteProfileForm
from ..models import Suite
from ..permissions import Capability, WorkspaceAccess, signed_in_user, workspace_access
from ..services.profiles import profile_of
from ..services.profiles.expanded_tests import expanded_tests
from ..services.profiles.workspace_formatter import WorkspaceFormatter
from ..services.suites.eval_files import delete_suite, rename_suite
from ..services.suites.fields import (
    PROMPTS_KEY,
    change_profile,
    edit_suite_fields,
    edit_suite_prompts,
    fields_text,
    has_fields,
    shows_prompts,
)
from ..services.suites.prompts import PromptRow, rows_of
from ..services.workspaces.paths import WorkspacePathError
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
    profile_form = SuiteProfileForm(initial={"profile": profile_of(suite).name})
    return _settings_page(request, access, suite, form, profile_form)


@dataclass
class PromptsCard:
    """The Prompts card as the page shows it: the rows (stored, or as posted and not saved),
    the control to focus after a structural edit, and what went wrong saving them."""

    rows: list[PromptRow]
    focus: str = ""
    error: str = ""
    file_paths: list[str] = field(default_factory=list)


@require_POST
@vary_on_headers("HX-Request")
def suite_prompts(request: HtmxHttpRequest, slug: str, suite_pk: int) -> HttpResponse:
    """Edit the Prompts card: `action` adds, removes or moves a prompt in the posted, unsaved
    rows (htmx gets the card, a plain form post the page), or saves them (`save`)."""
    access, suite = _editable_suite(request, slug, suite_pk)
    action = request.POST.get("action", "save")
    try:
        rows = rows_from_form(request.POST)
        edited = apply_action(rows, action) if action != "save" else None
    except PromptFormError as error:
        return HttpResponseBadRequest(f"The prompts form was not understood: {error}")
    if edited is not None:
        card = PromptsCard(*edited)
        if request.htmx:
            formatter = WorkspaceFormatter(access.workspace)
            context = _prompts_context(access, suite, card, formatter)
            return render(request, f"{SETTINGS_PAGE}#prompts-form", context)
        return _settings_page(request, access, suite, prompts=card)
    try:
        changes = edit_suite_prompts(suite, rows, signed_in_user(request))
    except EvalFileError as error:
        card = PromptsCard(rows, error=error.message)
        return _settings_page(request, access, suite, prompts=card)
    said = f"Saved the prompts of {suite.path}: {changes}." if changes else "No changes."
    messages.success(request, said)
    return redirect("suite_settings", access.workspace.slug, suite.pk)


@require_POST
def suite_profile(request: HtmxHttpRequest, slug: str, suite_pk: int) -> HttpResponse:
    """Switch the profile that formats the suite's cases."""
    access, suite = _editable_suite(request, slug, suite_pk)
    profile_form = SuiteProfileForm(request.POST)
    if not profile_form.is_valid():
        return _settings_page(request, access, suite, profile_form=profile_form)
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
    form: SuiteFieldsForm | None = None,
    profile_form: SuiteProfileForm | None = None,
    prompts: PromptsCard | None = None,
) -> HttpResponse:
    form = form or SuiteFieldsForm(initial={"fields_yaml": fields_text(suite)})
    profile = profile_of(suite)
    profile_form = profile_form or SuiteProfileForm(initial={"profile": profile.name})
    prompts = prompts or PromptsCard(rows_of(suite.document.get(PROMPTS_KEY)))
    formatter = WorkspaceFormatter(access.workspace)
    context = {
        **_prompts_context(access, suite, prompts, formatter),
        # Listed for a profile that runs a case once per prompt and list value (2026).
        "expanded": expanded_tests(suite, formatter) if profile.expands_tests else None,
        "form": form,
        "profile_form": profile_form,
        "has_fields": has_fields(suite),
    }
    status = 422 if form.errors or profile_form.errors or prompts.error else 200
    return render(request, SETTINGS_PAGE, context, status=status)


def _prompts_context(
    access: WorkspaceAccess, suite: Suite, prompts: PromptsCard, formatter: WorkspaceFormatter
) -> dict[str, object]:
    """What the Prompts card shows, on the page and as the card's partial."""
    shown = shows_prompts(suite)
    if shown:
        prompts.file_paths = sorted(formatter.file_texts)
    return {
        "workspace": access.workspace,
        "access": access,
        "suite": suite,
        "shows_prompts": shown,
        "prompts": prompts,
    }


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

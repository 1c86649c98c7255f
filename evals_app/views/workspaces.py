"""Workspace pages: the list of workspaces, and one workspace's suites, files and patterns."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib import messages
from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from ..eval_files.dialects import CONFIG_PATH
from ..forms import (
    CheckoutFolderForm,
    FileForm,
    MemberForm,
    PatternsForm,
    SuiteForm,
    TokenCountsForm,
    UploadForm,
)
from ..models import Case, Membership, Suite
from ..permissions import (
    Capability,
    WorkspaceAccess,
    signed_in_user,
    visible_workspaces,
    workspace_access,
)
from ..services.profiles import new_suite_profiles, profile_named
from ..services.profiles.workspace_formatter import workspace_configs
from ..services.repository.conflicts import open_conflicts
from ..services.repository.remotes import remote_panel
from ..services.review.scores import review_report
from ..services.review.workflow import status_counts
from ..services.suites.eval_files import create_suite
from ..services.workspaces.configs import (
    ConfigPathError,
    GuidelinePatternError,
    config_rows,
    set_guideline_patterns,
)
from ..services.workspaces.files import file_rows, max_file_bytes
from ..services.workspaces.lifecycle import (
    CheckoutFolderError,
    set_checkout_folder,
    set_token_counts,
)
from ..services.workspaces.paths import WorkspacePathError
from .htmx_request import HtmxHttpRequest

WORKSPACE_PAGE = "evals/workspace_detail.html"


@require_GET
def workspace_list(request: HtmxHttpRequest) -> HttpResponse:
    """Every workspace with its number of suites and cases."""
    # Counted by a subquery each, from the suite and case indexes alone: a join of workspaces,
    # suites and cases grouped and counted distinct read every case row's pair again.
    suites = Suite.objects.filter(workspace=OuterRef("pk")).order_by().values("workspace")
    cases = Case.objects.filter(suite__workspace=OuterRef("pk")).order_by()
    workspaces = visible_workspaces(request.user).annotate(
        suite_count=_counted(suites.annotate(n=Count("*")).values("n")),
        case_count=_counted(cases.values("suite__workspace").annotate(n=Count("*")).values("n")),
    )
    return render(request, "evals/workspace_list.html", {"workspaces": workspaces})


def _counted(count: QuerySet[Any]) -> Coalesce:
    return Coalesce(Subquery(count), 0, output_field=IntegerField())


@require_GET
def workspace_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A workspace's suites, files and guideline patterns, each with the form that adds to it."""
    access = workspace_access(request.user, slug)
    return render(request, WORKSPACE_PAGE, workspace_context(access))


@require_POST
def suite_create(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Add an empty eval file to the workspace, then show it."""
    access = workspace_access(request.user, slug, Capability.EDIT)
    workspace = access.workspace
    form = suite_form(workspace.suites.only("profile"), request.POST)
    if form.is_valid():
        profile = profile_named(form.cleaned_data["profile"])
        try:
            path = form.cleaned_data["path"]
            suite = create_suite(workspace, path, signed_in_user(request), profile)
        except WorkspacePathError as error:
            form.add_error("path", error.message)
        else:
            messages.success(request, f"Added {suite.path}.")
            return redirect("suite_detail", workspace.slug, suite.pk)
    context = workspace_context(access, suite_form=form)
    return render(request, WORKSPACE_PAGE, context, status=422)


@require_POST
def workspace_patterns(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Replace the guideline patterns of one `.agentv/config.yaml` (the owner's setting)."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    workspace = access.workspace
    form = PatternsForm(request.POST)
    config = CONFIG_PATH
    if form.is_valid():
        config = form.cleaned_data["config"] or CONFIG_PATH
        try:
            patterns = set_guideline_patterns(
                workspace, form.cleaned_data["patterns"], config, signed_in_user(request)
            )
        except ConfigPathError as error:
            # A hidden field no page of the app sets this way: no row of the page is that
            # config, so the reason is shown at the top of the page.
            messages.error(request, error.message)
            return render(request, WORKSPACE_PAGE, workspace_context(access), status=400)
        except GuidelinePatternError as error:
            form.add_error("patterns", error.message)
        else:
            count = len(patterns)
            noun = f"guideline pattern{'s' * (count != 1)}"
            messages.success(request, f"Saved {count} {noun} in {config}.")
            return redirect(workspace)
    context = workspace_context(access, patterns_form=form, patterns_config=config)
    return render(request, WORKSPACE_PAGE, context, status=422)


@require_POST
def workspace_checkout_folder(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Set the folder the workspace is checked out in (the owner's setting): agent mode shows
    file paths inside it."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    form = CheckoutFolderForm(request.POST)
    if form.is_valid():
        try:
            workspace = set_checkout_folder(access.workspace, form.cleaned_data["checkout_folder"])
        except CheckoutFolderError as error:
            form.add_error("checkout_folder", error.message)
        else:
            folder = workspace.checkout_folder
            messages.success(
                request,
                f"Checkout folder set to {folder}." if folder else "Checkout folder cleared.",
            )
            return redirect(workspace)
    context = workspace_context(access, checkout_form=form)
    return render(request, WORKSPACE_PAGE, context, status=422)


@require_POST
def workspace_token_counts(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Set the encoding the editor counts tokens in and the workspace's context window (the
    owner's setting, docs/user-guide.md, "Token counts")."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    form = TokenCountsForm(request.POST)
    if form.is_valid():
        workspace = set_token_counts(
            access.workspace,
            form.cleaned_data["token_encoding"],
            form.cleaned_data["context_window"],
        )
        messages.success(
            request,
            f"Tokens are counted in {workspace.token_encoding} against a context window of "
            f"{workspace.context_window} tokens.",
        )
        return redirect(workspace)
    context = workspace_context(access, token_form=form)
    return render(request, WORKSPACE_PAGE, context, status=422)


def suite_form(suites: Iterable[Suite], data: Any = None) -> SuiteForm:
    """The form of a new suite beside `suites`, offering today's format and their periods."""
    profiles = [(profile.name, profile.label) for profile in new_suite_profiles(suites)]
    return SuiteForm(data, profiles=profiles)


def workspace_context(access: WorkspaceAccess, **forms: Any) -> dict[str, Any]:
    """What the workspace page shows; `forms` replaces blank forms with submitted ones."""
    workspace = access.workspace
    configs = workspace_configs(workspace)
    files = file_rows(workspace, configs)
    counts = status_counts(access)
    suites = list(
        workspace.suites.defer(*Suite.TEXTS).annotate(case_count=Count("cases")).order_by("path")
    )
    members = list(workspace.memberships.select_related("user").order_by("user__username"))
    return {
        "workspace": workspace,
        "access": access,
        "status_counts": counts,
        "review_total": sum(count for _, _, count in counts),
        "members": members,
        "has_owner": any(m.role == Membership.Role.OWNER for m in members),
        "member_form": MemberForm(),
        "suites": suites,
        "files": files,
        "guideline_count": sum(file.is_guideline for file in files),
        "max_file_bytes": max_file_bytes(),
        "suite_form": suite_form(suites),
        "file_form": FileForm(),
        "upload_form": UploadForm(),
        "configs": config_rows(configs, [suite.path for suite in suites]),
        "conflicts": open_conflicts(workspace),
        "patterns_form": None,
        "checkout_form": CheckoutFolderForm(initial={"checkout_folder": workspace.checkout_folder}),
        "token_form": TokenCountsForm(
            initial={
                "token_encoding": workspace.token_encoding,
                "context_window": workspace.context_window,
            }
        ),
        "remote": remote_panel(workspace),
        "review_report": review_report(access),
        **forms,
    }

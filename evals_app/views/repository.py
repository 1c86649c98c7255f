"""The linked repository on the workspace page: check for changes, apply them, publish; and
the conflict a sync left on a case, resolved from its editor (docs/sync.md)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.debug import sensitive_post_parameters, sensitive_variables
from django.views.decorators.http import require_GET, require_POST

from ..models import Job, Suite
from ..permissions import Capability, WorkspaceAccess, signed_in_user, workspace_access
from ..request_numbers import parse_number
from ..services.imports.folders import ImportFailed
from ..services.jobs.requests import JobRefused, ask_check, ask_publish, ask_sync
from ..services.profiles.workspace_formatter import WorkspaceFormatter
from ..services.repository.conflicts import NoConflict, keep_mine, take_theirs
from ..services.repository.credentials import CredentialError
from ..services.repository.git import GitError
from ..services.repository.link_requests import ask_link, ask_link_confirmed, ask_relink
from ..services.repository.remotes import LinkRefused, LinkRequest, check_for_changes
from ..services.repository.sync import NotLinked
from ..services.repository.three_way import OUTCOME_KINDS, UNCHANGED, CaseOutcome
from ..services.review.document_diffs import document_diff
from .htmx_request import HtmxHttpRequest
from .lookups import case_or_404
from .workspaces import WORKSPACE_PAGE, workspace_context

MAX_DIFFS = 100  # cases shown with their diffs on the check page; the counts cover them all
REFUSALS = (GitError, NotLinked, ImportFailed, CredentialError)


@require_POST
def repository_check(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Queue a check of what a sync with the linked branch would do (docs/jobs.md)."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    return redirect(ask_check(signed_in_user(request), access.workspace))


@require_GET
def repository_changes(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """What a sync with the linked branch would do, case by case, before it is applied."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    workspace = access.workspace
    try:
        commit, report = check_for_changes(workspace)
    except REFUSALS as error:
        messages.error(request, f"The repository could not be read: {error}")
        return redirect(workspace)
    suites = {suite.path: suite for suite in workspace.suites.defer(*Suite.TEXTS)}
    formatter = WorkspaceFormatter(workspace)
    shown = report.outcomes[:MAX_DIFFS]
    context: dict[str, Any] = {
        "workspace": workspace,
        "access": access,
        "commit": commit,
        "report": report,
        "counts": [(kind, report.counts[kind]) for kind in OUTCOME_KINDS],
        "changes": [_change(formatter, suites, outcome) for outcome in shown],
        "hidden": len(report.outcomes) - len(shown),
        "unchanged": UNCHANGED,
    }
    return render(request, "evals/repository_check.html", context)


@require_POST
def repository_sync(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Apply the sync that was checked: the commit the check page showed, which must still be
    the tip of the followed branch (never another ref)."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    workspace = access.workspace
    try:
        job = ask_sync(signed_in_user(request), workspace, request.POST.get("commit", ""))
    except JobRefused as refusal:
        messages.error(request, str(refusal))
        return render(request, WORKSPACE_PAGE, workspace_context(access), status=400)
    return redirect(job)


@require_POST
def repository_publish(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Commit the workspace's suites and files on a branch (owners)."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    workspace = access.workspace
    try:
        job = ask_publish(
            signed_in_user(request),
            workspace,
            request.POST.get("branch", ""),
            approved_only=request.POST.get("approved_only") == "on",
            skip_conflicts=request.POST.get("skip_conflicts") == "on",
            message=request.POST.get("message", ""),
        )
    except JobRefused as refusal:
        messages.error(request, str(refusal))
        return redirect(workspace)
    return redirect(job)


# The link form's fields, as a refusal names them.
LINK_FIELDS = {
    "url": "Repository URL",
    "branch": "Branch",
    "folder": "Folder in the repository",
    "credential_kind": "Credential",
    "secret": "Token or private key",
    "commit": "Commit",
}


@sensitive_variables("link")
@sensitive_post_parameters("secret")
@require_POST
def repository_link(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Queue the preview of linking the workspace to a repository by URL (owners); a refused
    field answers 400 naming it (docs/sync.md, "Remotes")."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    link = LinkRequest(
        url=request.POST.get("url", ""),
        branch=request.POST.get("branch", ""),
        folder=request.POST.get("folder", ""),
        credential_kind=request.POST.get("credential_kind", ""),
        secret=request.POST.get("secret", ""),
    )
    try:
        job = ask_link(signed_in_user(request), access.workspace, link)
    except LinkRefused as refusal:
        return _link_refused(request, access, refusal)
    return redirect(job)


@require_POST
def repository_relink(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Queue the preview of following another branch or folder of the linked remote."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    try:
        job = ask_relink(
            signed_in_user(request),
            access.workspace,
            request.POST.get("branch", ""),
            request.POST.get("folder", ""),
        )
    except LinkRefused as refusal:
        return _link_refused(request, access, refusal)
    return redirect(job)


@require_POST
def repository_link_confirm(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Queue the link (or the new branch or folder) its preview job showed, at the commit it
    showed."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    user = signed_in_user(request)
    preview = Job.objects.filter(
        pk=parse_number(request.POST.get("preview", "")) or 0, requested_by=user
    ).first()
    if preview is None:
        return _link_refused(request, access, LinkRefused("Preview the link first."))
    try:
        job = ask_link_confirmed(user, access.workspace, preview, request.POST.get("commit", ""))
    except LinkRefused as refusal:
        return _link_refused(request, access, refusal)
    return redirect(job)


def _link_refused(
    request: HtmxHttpRequest, access: WorkspaceAccess, refusal: LinkRefused
) -> HttpResponse:
    """The workspace page, 400, with the refusal naming the field at fault."""
    label = LINK_FIELDS.get(refusal.field)
    messages.error(
        request, f"The repository was not linked: {label + ': ' if label else ''}{refusal}"
    )
    return render(request, WORKSPACE_PAGE, workspace_context(access), status=400)


@require_POST
def case_resolve(request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int) -> HttpResponse:
    """Resolve the case's conflict with the repository: take theirs or keep mine."""
    access, case = case_or_404(request, slug, suite_pk, case_pk, Capability.EDIT)
    actor = signed_in_user(request)
    choice = request.POST.get("resolution")
    try:
        if choice == "theirs":
            kept = take_theirs(case, actor)
            messages.success(request, f"{case.case_id} now holds the repository's version.")
            if kept is None:
                return redirect("suite_detail", access.workspace.slug, suite_pk)
        elif choice == "mine":
            keep_mine(case, actor)
            messages.success(request, f"Kept your version of {case.case_id}.")
        else:
            messages.error(request, "Choose Take theirs or Keep mine.")
    except NoConflict as error:
        messages.info(request, str(error))
    return redirect("case_editor", access.workspace.slug, suite_pk, case_pk)


def _change(
    formatter: WorkspaceFormatter, suites: dict[str, Suite], outcome: CaseOutcome
) -> dict[str, Any]:
    suite = suites.get(outcome.suite_path)  # None: a suite the files add
    diff = document_diff(formatter, suite, outcome.mine, outcome.theirs) if suite else None
    return {"outcome": outcome, "diff": diff}

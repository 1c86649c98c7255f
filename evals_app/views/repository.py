"""The linked repository on the workspace page: check for changes, apply them, publish; and
the conflict a sync left on a case, resolved from its editor (docs/sync.md)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_POST

from ..models import Suite
from ..permissions import Capability, signed_in_user, workspace_access
from ..services.imports.folders import ImportFailed
from ..services.jobs.requests import JobRefused, ask_check, ask_publish, ask_sync
from ..services.profiles.workspace_formatter import WorkspaceFormatter
from ..services.repository.conflicts import NoConflict, keep_mine, take_theirs
from ..services.repository.credentials import CredentialError
from ..services.repository.git import GitError
from ..services.repository.remotes import LinkRefused, LinkRequest, check_for_changes, link_remote
from ..services.repository.sync import NotLinked
from ..services.repository.three_way import OUTCOME_KINDS, UNCHANGED, CaseOutcome
from ..services.review.document_diffs import document_diff
from .htmx_request import HtmxHttpRequest
from .lookups import case_or_404

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
    checked = request.POST.get("commit", "")
    return redirect(ask_sync(signed_in_user(request), workspace, checked))


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


@sensitive_post_parameters("secret")
@require_POST
def repository_link(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Link the workspace to a repository by URL, and import its folder (owners)."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    workspace = access.workspace
    link = LinkRequest(
        url=request.POST.get("url", ""),
        branch=request.POST.get("branch", "").strip(),
        folder=request.POST.get("folder", ""),
        credential_kind=request.POST.get("credential_kind", ""),
        secret=request.POST.get("secret", ""),
    )
    try:
        commit, report = link_remote(workspace, link, signed_in_user(request))
    except (LinkRefused, *REFUSALS) as error:
        messages.error(request, f"The repository was not linked: {error}")
        return redirect(workspace)
    counts = ", ".join(f"{report.counts[kind]} {kind}" for kind in OUTCOME_KINDS)
    messages.success(request, f"Linked {link.url.strip()} at {commit[:12]}: {counts}.")
    for path, why in report.skipped:
        messages.warning(request, f"Skipped {path}: {why}")
    return redirect(workspace)


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

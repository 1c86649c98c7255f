"""Running a case from the editor, a run's page with its results, and cancelling it
(docs/runs.md)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect

from ..editor.case_drafts import CaseDraft, DraftFormError, DraftValueError
from ..json_limits import JSONTooDeep
from ..models import Case, Run, RunResult, Suite
from ..permissions import Capability, WorkspaceAccess, signed_in_user, workspace_access
from ..services.jobs.workers import notice_dead_workers
from ..services.runs.agentv_cli import agentv_status
from ..services.runs.listing import last_results, last_suite_run
from ..services.runs.starting import (
    RunRefused,
    cancel_run,
    cases_run_all_runs,
    names_files_of_cases,
    run_refusal,
    run_unavailable,
    start_run,
)
from ..services.runs.targets import TargetsFileError, offered_targets
from .htmx_request import HtmxHttpRequest
from .lookups import case_or_404

PAGE = "evals/run.html"
MAX_SELECTED = 1000  # as for the suite page's other actions on the selected cases


def run_panel_context(access: WorkspaceAccess, case: Case) -> dict[str, Any]:
    """What the editor's Run panel shows: the targets offered, or why this person cannot run
    (or why this suite cannot run, beside a disabled Run), and the case's latest run."""
    refusal, targets = _run_choices(access)
    latest = _latest_run_of(case)
    return {
        "run_refusal": refusal,
        "run_targets": targets,
        "run_unavailable": "" if refusal else run_unavailable(access, case.suite, [case.document]),
        "agentv_version": agentv_status().version if not refusal else "",
        "can_cancel": access.can(Capability.EDIT),
        **(_shown(latest) if latest is not None else {"run": None}),
    }


def _run_choices(access: WorkspaceAccess) -> tuple[str, list[str]]:
    """Why this person cannot run here ("" when they can), and the targets offered."""
    refusal = run_refusal(access)
    if refusal:
        return refusal, []
    try:
        return "", [target.name for target in offered_targets()]
    except TargetsFileError as error:
        return str(error), []


def _latest_run_of(case: Case) -> Run | None:
    """The newest run that ran `case` alone (the editor's Run)."""
    for run in Run.objects.filter(suite=case.suite).select_related("job")[:20]:
        if [entry["case"] for entry in run.cases] == [case.pk]:
            return run
    return None


def suite_run_context(
    access: WorkspaceAccess, suite: Suite, cases: list[Case], total: int
) -> dict[str, Any]:
    """What the suite page shows of runs: the last run's pass rate, Run all (of `total` cases,
    or those of the files of cases the suite names) and Run selected (or why not, beside the
    disabled buttons), and each listed case's last result (as `case.last_run_result`)."""
    refusal, targets = _run_choices(access)
    results = last_results(cases)
    for case in cases:
        case.last_run_result = results.get(case.pk)  # type: ignore[attr-defined]
    return {
        "suite_run_refusal": refusal,
        "suite_run_targets": targets,
        "suite_run_unavailable": "" if refusal else run_unavailable(access, suite),
        "run_all_total": cases_run_all_runs(suite).count()
        if names_files_of_cases(suite)
        else total,
        "last_suite_run": last_suite_run(suite),
    }


@require_POST
def suite_run(request: HtmxHttpRequest, slug: str, suite_pk: int) -> HttpResponse:
    """Run every case of the suite (`scope=all`) or the selected ones (`cases`), as stored,
    then show the run's page; a refusal is a message on the suite page."""
    access = workspace_access(request.user, slug)
    suite = get_object_or_404(access.workspace.suites, pk=suite_pk)
    chosen = cases_run_all_runs(suite)
    if request.POST.get("scope") != "all":
        selected = request.POST.getlist("cases")
        if len(selected) > MAX_SELECTED or not all(pk.isdigit() for pk in selected):
            return HttpResponseBadRequest("The selection is not a list of cases.")
        chosen = suite.cases.order_by("position").filter(pk__in=[int(pk) for pk in selected])
    cases = [(case, case.document) for case in chosen]
    try:
        run = start_run(
            access, signed_in_user(request), suite, cases, request.POST.get("run_target", "")
        )
    except RunRefused as refusal:
        messages.error(request, f"Not run: {refusal}")
        target = reverse("suite_detail", args=[access.workspace.slug, suite.pk])
    else:
        target = run.get_absolute_url()
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


@require_POST
def case_run(request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int) -> HttpResponse:
    """Run the editor's case as it is now (the posted draft, saved or not) with the chosen
    target; the Run panel answers, with the refusal's reason when it cannot run."""
    access, case = case_or_404(request, slug, suite_pk, case_pk)
    try:
        draft = CaseDraft.from_form(request.POST)
    except (DraftFormError, JSONTooDeep) as error:
        return HttpResponseBadRequest(f"The editor form was not understood: {error}")
    context: dict[str, Any] = {"workspace": access.workspace, "suite": case.suite, "case": case}
    try:
        document = draft.saved_document()
        run = start_run(
            access,
            signed_in_user(request),
            case.suite,
            [(case, document)],
            request.POST.get("run_target", ""),
        )
    except (RunRefused, DraftValueError) as refusal:
        latest = _latest_run_of(case)
        context.update(_shown(latest) if latest else {"run": None}, run_error=str(refusal))
        return render(request, f"{PAGE}#run-panel", context)
    if not request.htmx:
        return redirect(run.get_absolute_url())
    context.update(_shown(run), can_cancel=True)
    return render(request, f"{PAGE}#run-panel", context)


@require_GET
@vary_on_headers("HX-Request")
def run_detail(request: HtmxHttpRequest, slug: str, run_pk: int) -> HttpResponse:
    """A run's page: its progress while it runs, then every case's answer and grades. htmx
    polls its panel while the run is unfinished."""
    access = workspace_access(request.user, slug)
    run = _run_or_404(access, run_pk)
    context = {"workspace": access.workspace, "suite": run.suite, **_shown(run)}
    context["can_cancel"] = access.can(Capability.EDIT)
    return render(request, f"{PAGE}#run-panel" if request.htmx else PAGE, context)


@require_POST
def run_cancel(request: HtmxHttpRequest, slug: str, run_pk: int) -> HttpResponse:
    """Cancel the run: at once when queued; AgentV is stopped when it runs."""
    access = workspace_access(request.user, slug, Capability.EDIT)
    run = _run_or_404(access, run_pk)
    cancel_run(run)
    if request.htmx:
        context = {"workspace": access.workspace, "suite": run.suite, **_shown(run)}
        return render(request, f"{PAGE}#run-panel", context)
    return redirect(run.get_absolute_url())


def _run_or_404(access: WorkspaceAccess, run_pk: int) -> Run:
    runs = Run.objects.filter(workspace=access.workspace).select_related("job", "suite")
    run = get_object_or_404(runs, pk=run_pk)
    notice_dead_workers(type(run.job).objects.filter(pk=run.job_id))
    run.job.refresh_from_db()
    run.workspace = access.workspace
    return run


def _shown(run: Run) -> dict[str, Any]:
    results = list(run.results.all())
    skipped = [result for result in results if result.verdict == RunResult.Verdict.SKIPPED]
    return {
        "run": run,
        "results": results,
        "passed": sum(result.verdict == RunResult.Verdict.PASS for result in results),
        "counted": len(results) - len(skipped),
        "skipped": skipped,
    }

"""Asking for a run, and every reason one is refused (docs/runs.md, "Safety")."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, QuerySet

from ...models import Case, Job, Run, Suite
from ...permissions import Capability, WorkspaceAccess
from ..jobs.queue import cancel_job
from ..jobs.tasks import run_job_task
from ..jobs.wake import wake_workers
from .agentv_cli import agentv_status
from .run_folder import suite_run_files
from .targets import TargetsFileError, offered_targets


class RunRefused(Exception):
    """Why a run cannot be started; shown to the person as it is."""


def run_refusal(access: WorkspaceAccess) -> str:
    """Why this person cannot run tests here now ("" when they can): the reasons that do not
    depend on what is run."""
    if not access.can(Capability.EDIT):
        return "Only owners and editors of the workspace may run tests."
    if not settings.AGENTV_RUNS_ENABLED:
        return "Runs are turned off on this server (the operator sets AGENTV_RUNS_ENABLED)."
    status = agentv_status()
    if not status.usable:
        return status.problem
    return ""


def run_files_problem(suite: Suite, documents: list[dict[str, Any]]) -> str:
    """Why the sandbox refuses to run `documents` of `suite` ("" when it does not): a
    reference outside the workspace, a command the operator has not allowed, the server's
    environment named (docs/runs.md, "Safety")."""
    return suite_run_files(suite, documents, writing=False).refusal()


def cases_run_all_runs(suite: Suite) -> QuerySet[Case]:
    """The cases **Run all** runs of `suite`: its own, then those of the files of cases it
    names (`tests: ./cases.yaml`, `tests: ./cases/`), which AgentV reads with it
    (docs/runs.md, "The run folder")."""
    of_its_files = Q(suite__workspace_id=suite.workspace_id, suite__referenced_by=suite.path)
    return Case.objects.filter(Q(suite=suite) | of_its_files).order_by("suite__path", "position")


def names_files_of_cases(suite: Suite) -> bool:
    """Whether `suite`'s list of cases is a reference to other files (`tests: ./cases.yaml`)."""
    document = suite.document
    return (
        bool(suite.cases_key)
        and isinstance(document, dict)
        and (isinstance(document.get(suite.cases_key), str))
    )


def run_unavailable(
    access: WorkspaceAccess, suite: Suite, documents: list[dict[str, Any]] | None = None
) -> str:
    """Why the Run buttons of `suite` (running `documents`, its cases when None) are disabled
    for this person, said beside them before any click ("" when they can run): the person,
    the server's settings, AgentV, the operator's targets file, the sandbox. A start refused
    later is refused for the same reasons."""
    refusal = run_refusal(access)
    if refusal:
        return refusal
    if suite.read_only and not suite.referenced_by:
        return f"{suite.path} is a CSV file of cases: run them from the suite that names it."
    try:
        offered_targets()
    except TargetsFileError as error:
        return str(error)
    if documents is None:
        documents = list(cases_run_all_runs(suite).values_list("document", flat=True))
    return run_files_problem(suite, documents)


def start_run(
    access: WorkspaceAccess,
    user: User,
    suite: Suite,
    cases: list[tuple[Case, dict[str, Any]]],
    target: str,
) -> Run:
    """Queue a run of `cases` (each with the document to run: its draft, saved or not) with
    `target`; raises RunRefused with the reason."""
    refusal = run_refusal(access)
    if refusal:
        raise RunRefused(refusal)
    if not cases:
        raise RunRefused("Choose at least one case to run.")
    if suite.read_only and not suite.referenced_by:
        raise RunRefused(
            f"{suite.path} is a CSV file of cases: run them from the suite that names it."
        )
    # What the sandbox refuses comes first: it holds whatever AgentV reads the suite.
    sandbox_problem = run_files_problem(suite, [document for _, document in cases])
    if sandbox_problem:
        raise RunRefused(sandbox_problem)
    try:
        targets = {offered.name: offered for offered in offered_targets()}
    except TargetsFileError as error:
        raise RunRefused(str(error)) from None
    chosen = targets.get(target)
    if chosen is None:
        raise RunRefused(f"No target is named {target!r}; choose one of {', '.join(targets)}.")
    if not settings.AGENTV_RUNS_ALLOW_COMMANDS:
        reasons = [f"target {target} starts a program"] if chosen.runs_commands else []
        grader = targets.get(chosen.grader_target)
        if grader is not None and grader.runs_commands:
            reasons.append(f"its judge target {grader.name} starts a program")
        if reasons:
            raise RunRefused(
                "This run would execute commands on the server, which the operator has not "
                f"allowed (AGENTV_RUNS_ALLOW_COMMANDS): {'; '.join(reasons)}."
            )
    # The run exists before its task is queued, so the worker always finds it. Its job names
    # no workspace: runs do not wait for the workspace's syncs; they have their own limit.
    with transaction.atomic():
        job = Job.objects.create(kind=Job.Kind.RUN, requested_by=user, arguments={})
        run = Run.objects.create(
            workspace=suite.workspace,
            suite=suite,
            requested_by=user,
            job=job,
            target=target,
            cases=[{"case": case.pk, "document": document} for case, document in cases],
        )
    task = run_job_task.enqueue(job.pk)
    Job.objects.filter(pk=job.pk).update(task_id=str(task.id))
    # An idle worker starts it now, not at its next look at the queue.
    transaction.on_commit(wake_workers)
    run.refresh_from_db()
    return run


def cancel_run(run: Run) -> None:
    """Cancel the run's job: at once when queued, AgentV stopped when running."""
    cancel_job(run.job)

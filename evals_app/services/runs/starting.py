"""Asking for a run, and every reason one is refused (docs/runs.md, "Safety")."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction

from ...models import Case, Job, Run, Suite
from ...permissions import Capability, WorkspaceAccess
from ..jobs.queue import cancel_job
from ..jobs.tasks import run_job_task
from ..jobs.wake import wake_workers
from .agentv_cli import agentv_status
from .commands import commands_in_case, commands_in_suite
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


def run_unavailable(access: WorkspaceAccess, suite: Suite) -> str:
    """Why the Run buttons of `suite` are disabled for this person, said beside them before
    any click ("" when they can run): the person, the server's settings, AgentV, the
    operator's targets file. A start refused later is refused for the same reasons."""
    refusal = run_refusal(access)
    if refusal:
        return refusal
    if suite.read_only:
        return f"{suite.path} is a CSV file of cases: run them from the suite that names it."
    try:
        offered_targets()
    except TargetsFileError as error:
        return str(error)
    return ""


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
    if suite.read_only:
        raise RunRefused(
            f"{suite.path} is a CSV file of cases: run them from the suite that names it."
        )
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
        reasons += list(commands_in_suite(suite.document))
        for case, document in cases:
            reasons += [f"{case.case_id}: {reason}" for reason in commands_in_case(document)]
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

"""A run in the worker: wait for a place among the workspace's runs, run AgentV in a private
folder, and store every case's result at once (docs/runs.md)."""

from __future__ import annotations

import shutil
import time
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.urls import reverse
from django.utils import timezone

from ...models import Case, Job, Revision, Run, RunResult, Workspace
from ..jobs.leftovers import scratch_folder
from ..jobs.progress import Progress
from ..jobs.running import OperationRefused
from .agentv_cli import agentv_command, agentv_status
from .agentv_process import AgentvFailed, run_agentv
from .results import ResultsUnreadable, TestResult, read_results
from .run_folder import write_run_folder
from .targets import TargetsFileError

WAIT_SECONDS = 0.2  # how often a run waiting for a place among its workspace's runs looks
PASSED = RunResult.Verdict.PASS


def run_cases(job: Job, progress: Progress) -> dict[str, Any]:
    """The job operation of a run: AgentV's results stored, or a clear error and nothing."""
    run = Run.objects.select_related("suite__workspace").filter(job=job).first()
    if run is None:
        raise OperationRefused("The run was deleted (with its suite or workspace) before it ran.")
    status = agentv_status()
    if not status.usable:
        raise OperationRefused(status.problem)
    documents = [entry["document"] for entry in run.cases]
    progress(0, len(documents), "tests done")
    _wait_for_a_place(run, progress)
    folder = scratch_folder(job, "run")  # mode 0700: this user's only
    try:
        try:
            eval_file = write_run_folder(folder, run.suite, documents)
        except TargetsFileError as error:
            raise OperationRefused(str(error)) from None
        output = folder / "results"
        command = [
            *agentv_command(),
            "eval",
            "run",
            str(eval_file),
            "--targets",
            str(folder / "targets.yaml"),
            "--target",
            run.target,
            "--output",
            str(output),
        ]
        try:
            printed = run_agentv(
                command,
                folder / "workspace",
                time_limit=settings.AGENTV_RUN_TIME_LIMIT_SECONDS,
                output_limit=settings.AGENTV_RUN_OUTPUT_LIMIT_BYTES,
                on_progress=lambda done, total: progress(
                    done, total or len(documents), "tests done"
                ),
            )
            results = read_results(output, printed.stderr)
        except (AgentvFailed, ResultsUnreadable) as error:
            raise OperationRefused(str(error)) from None
        if not results:
            said = (printed.stderr.strip() or printed.stdout.strip())[-2000:]
            raise OperationRefused(
                f"AgentV ended (exit code {printed.returncode}) without a result:\n{said}"
            )
        url = reverse("run_detail", args=[run.suite.workspace.slug, run.pk])
        stored = _store(run, results, status.version, printed.seconds)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    passed = sum(result.verdict == PASSED for result in stored)
    return {
        "summary": f"{passed} of {len(stored)} tests passed with {run.target}.",
        "links": [{"label": "See the results", "url": url}],
        "lines": [],
        "more_lines": 0,
    }


def _wait_for_a_place(run: Run, progress: Progress) -> None:
    """Start once fewer than AGENTV_RUNS_PER_WORKSPACE runs of the workspace run AgentV."""
    while True:
        with transaction.atomic():
            # The workspace's row is the lock: two workers never both take the last place.
            Workspace.objects.select_for_update().filter(pk=run.workspace_id).first()
            running = Run.objects.filter(
                workspace_id=run.workspace_id,
                started_at__isnull=False,
                job__state=Job.State.RUNNING,
            ).exclude(pk=run.pk)
            if running.count() < settings.AGENTV_RUNS_PER_WORKSPACE:
                Run.objects.filter(pk=run.pk).update(started_at=timezone.now())
                return
        progress(0, len(run.cases), "tests done (waiting for another run of this workspace)")
        time.sleep(WAIT_SECONDS)


def _store(
    run: Run, results: dict[str, TestResult], version: str, seconds: float
) -> list[RunResult]:
    """One RunResult per case run, all in one transaction; a case AgentV said nothing of is
    an error that says so."""
    cases = {case.pk: case for case in Case.objects.filter(pk__in=[e["case"] for e in run.cases])}
    newest = (
        Revision.objects.filter(case__in=list(cases))
        .values("case")
        .annotate(number=Max("number"))
        .values_list("case", "number")
    )
    latest = {int(case_pk): int(number) for case_pk, number in newest}
    snapshots = {
        (revision.case_id, revision.number): revision.snapshot
        for revision in Revision.objects.filter(
            case__in=list(cases), number__in=set(latest.values())
        )
        if latest.get(revision.case_id) == revision.number
    }
    rows = []
    for entry in run.cases:
        document = entry["document"]
        test_id = str(document.get("id") or document.get("test_id") or "")
        result = results.get(test_id) or TestResult(
            test_id, "error", error="AgentV reported nothing for this test."
        )
        number = latest.get(entry["case"])
        saved = number is not None and snapshots.get((entry["case"], number)) == document
        rows.append(
            RunResult(
                run=run,
                case=cases.get(entry["case"]),
                test_id=test_id,
                revision_number=number if saved else None,
                target=run.target,
                verdict=result.verdict,
                score=result.score,
                answers=result.answers,
                graders=result.graders,
                input_tokens=result.input_tokens,
                output_tokens=result.output_tokens,
                cost_usd=result.cost_usd,
                duration_ms=result.duration_ms,
                error=result.error,
            )
        )
    with transaction.atomic():
        Run.objects.filter(pk=run.pk).update(agentv_version=version, agentv_seconds=seconds)
        return RunResult.objects.bulk_create(rows)

"""A run in the worker: wait for a place among the workspace's runs, run AgentV in a private
folder, and store every case's result at once (docs/runs.md)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
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
from .agentv_cli import agentv_command, agentv_status, forget_agentv_status
from .agentv_process import AgentvFailed, AgentvOutput, run_agentv
from .generations import Generation, generation_of
from .results import ResultsUnreadable, TestResult, read_results, warnings_of
from .run_folder import referring_suite, write_run_folder
from .spellings import RunSpelling, run_spelling
from .targets import TargetsFileError, judge_of, run_targets

WAIT_SECONDS = 0.2  # how often a run waiting for a place among its workspace's runs looks
PASSED = RunResult.Verdict.PASS
SKIPPED = RunResult.Verdict.SKIPPED


def run_cases(job: Job, progress: Progress) -> dict[str, Any]:
    """The job operation of a run: AgentV's results stored, or a clear error and nothing."""
    run = Run.objects.select_related("suite__workspace").filter(job=job).first()
    if run is None:
        raise OperationRefused("The run was deleted (with its suite or workspace) before it ran.")
    status = agentv_status()
    if not status.usable:
        raise OperationRefused(status.problem)
    generation = generation_of(status.version)
    documents = [entry["document"] for entry in run.cases]
    progress(0, len(documents), "tests done")
    _wait_for_a_place(run, progress)
    folder = scratch_folder(job, "run")  # mode 0700: this user's only
    try:
        try:
            # A file of cases that another suite names runs with that suite's file.
            runs_as = referring_suite(run.suite) or run.suite
            spelling = run_spelling(
                generation, runs_as, documents, run.suite.workspace.file_texts()
            )
            eval_file = write_run_folder(
                folder, run.suite, documents, {runs_as.path: spelling.text, **spelling.files}
            )
            providers = generation.providers_file(folder, run_targets())
            judge = judge_of(run.target)
        except TargetsFileError as error:
            raise OperationRefused(str(error)) from None
        output = folder / "results"
        command = generation.command(
            agentv_command(), eval_file, providers, run.target, judge, output
        )
        printed = _run(command, folder / "workspace", progress, len(documents))
        try:
            results = read_results(generation, output, printed.stderr)
        except ResultsUnreadable as error:
            raise OperationRefused(str(error)) from None
        if not results:
            said = (printed.stderr.strip() or printed.stdout.strip())[-2000:]
            raise OperationRefused(
                f"AgentV ended (exit code {printed.returncode}) without a result:\n{said}"
            )
        url = reverse("run_detail", args=[run.suite.workspace.slug, run.pk])
        stored = _store(run, results, spelling, generation, printed)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    passed = sum(result.verdict == PASSED for result in stored)
    skipped = sum(result.verdict == SKIPPED for result in stored)
    counted = len(stored) - skipped
    summary = f"{passed} of {counted} tests passed with {run.target}"
    return {
        "summary": summary + (f", {skipped} skipped." if skipped else "."),
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


def _run(command: list[str], folder: Path, progress: Progress, tests: int) -> AgentvOutput:
    """AgentV run in `folder`, its progress reported; a clear error when it cannot start or
    finish. An AgentV removed since it was asked its version says so as a run refused at the
    start would (the version, cached per process, is asked again)."""
    try:
        return run_agentv(
            command,
            folder,
            time_limit=settings.AGENTV_RUN_TIME_LIMIT_SECONDS,
            output_limit=settings.AGENTV_RUN_OUTPUT_LIMIT_BYTES,
            on_progress=lambda done, total: progress(done, total or tests, "tests done"),
        )
    except AgentvFailed as error:
        raise OperationRefused(str(error)) from None
    except OSError as error:
        forget_agentv_status()
        status = agentv_status()
        raise OperationRefused(status.problem or f"AgentV could not be started: {error}") from None


def _store(
    run: Run,
    results: dict[str, TestResult],
    spelling: RunSpelling,
    generation: Generation,
    printed: AgentvOutput,
) -> list[RunResult]:
    """One RunResult per test AgentV ran of each case (a case expands to one test per prompt
    and per value of a list variable), all in one transaction; a test AgentV said nothing of
    is an error that says so."""
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
    for entry, test_ids, not_run in zip(
        run.cases, spelling.test_ids, spelling.not_run, strict=True
    ):
        document = entry["document"]
        case = cases.get(entry["case"])
        number = latest.get(entry["case"])
        saved = number is not None and snapshots.get((entry["case"], number)) == document
        draft = case is None or case.document != document
        for test_id in test_ids or [str(document.get("id") or document.get("test_id") or "")]:
            result = results.get(test_id) or TestResult(
                test_id, "error", error="AgentV reported nothing for this test."
            )
            graders = result.graders + [
                {
                    "name": reason.split(": ", 1)[-1],
                    "type": "",
                    "score": None,
                    "verdict": "not run",
                    "reasoning": reason,
                    "assertions": [],
                    "graders": [],
                }
                for reason in not_run
            ]
            rows.append(
                RunResult(
                    run=run,
                    case=case,
                    test_id=test_id,
                    revision_number=number if saved else None,
                    draft=draft,
                    target=run.target,
                    verdict=result.verdict,
                    score=result.score,
                    answers=result.answers,
                    graders=graders,
                    input_tokens=result.input_tokens,
                    output_tokens=result.output_tokens,
                    cost_usd=result.cost_usd,
                    duration_ms=result.duration_ms,
                    error=result.error,
                )
            )
    with transaction.atomic():
        Run.objects.filter(pk=run.pk).update(
            agentv_version=generation.version,
            agentv_seconds=printed.seconds,
            agentv_exit_code=printed.returncode,
            agentv_warnings=warnings_of(printed.stderr),
            spelling_note=spelling.note,
        )
        return RunResult.objects.bulk_create(rows)

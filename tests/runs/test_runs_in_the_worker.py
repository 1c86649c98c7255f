"""Runs in a real worker process: cancelled while AgentV runs, AgentV killed under it, and
its private folder removed either way."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from evals_app.models import Job, Run
from tests.workers import Worker, finished, wait_for

from .conftest import JudgeServer, access_of, case_named, editor_of, workspace_of
from .test_running_cases import RUBRIC

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def run_folders(tmp_path: Path) -> Path:
    """Where the worker makes its runs' private folders: the scratch folder of its job files
    (the `tasks_in_the_database` fixture's)."""
    folders = tmp_path / "jobs" / "tmp"
    folders.mkdir(parents=True)
    return folders


@pytest.fixture
def worker(
    tasks_in_the_database: Path,
    judge_targets: JudgeServer,
    run_folders: Path,
    settings: object,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Worker]:
    """A worker whose settings (read from its environment) allow runs with the judge."""
    monkeypatch.setenv("AGENTV_RUNS_ENABLED", "true")
    monkeypatch.setenv("AGENTV_TARGETS_FILE", settings.AGENTV_TARGETS_FILE)  # type: ignore[attr-defined]
    running = Worker(tasks_in_the_database)
    running.start()
    yield running
    running.stop()


def running_run(tmp_path: Path, judge: JudgeServer) -> Run:
    """A run whose judge holds its answer back, once AgentV is waiting for it."""
    from evals_app.services.runs.starting import start_run

    judge.delay = 60
    workspace = workspace_of(tmp_path / "workspace", RUBRIC)
    case = case_named(workspace, "rubric")
    run = start_run(
        access_of(workspace, "editor"),
        editor_of(workspace),
        case.suite,
        [(case, case.document)],
        "graded-mock",
    )
    wait_for(run.job, lambda job: job.state == Job.State.RUNNING)
    deadline_reached = wait_for(run.job, lambda job: bool(judge.requests) or job.finished)
    assert not deadline_reached.finished, deadline_reached.error
    return run


def agentv_processes(folders: Path) -> list[int]:
    """The process groups' leaders (AgentV) working in a run folder under `folders`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cwd = os.readlink(entry / "cwd")
            leader = os.getpgid(int(entry.name)) == int(entry.name)
        except OSError:
            continue
        if cwd.startswith(str(folders)) and leader:
            found.append(int(entry.name))
    return found


def test_cancelling_a_running_run_stops_agentv_and_keeps_nothing(
    tmp_path: Path, worker: Worker, judge_targets: JudgeServer, run_folders: Path
) -> None:
    from evals_app.services.runs.starting import cancel_run

    run = running_run(tmp_path, judge_targets)
    cancel_run(run)
    job = finished(run.job)
    assert job.state == Job.State.CANCELLED
    assert not run.results.exists()
    assert agentv_processes(run_folders) == []
    assert list(run_folders.iterdir()) == []  # the private folder was removed


def test_a_killed_agentv_is_a_clear_error(
    tmp_path: Path, worker: Worker, judge_targets: JudgeServer, run_folders: Path
) -> None:
    run = running_run(tmp_path, judge_targets)
    [agentv] = agentv_processes(run_folders)
    os.kill(agentv, signal.SIGKILL)
    job = finished(run.job)
    assert job.state == Job.State.FAILED
    assert job.error == "AgentV was killed (SIGKILL) before it finished."
    assert not run.results.exists()
    assert list(run_folders.iterdir()) == []


def test_a_suite_run_of_twenty_cases_shows_its_progress(tmp_path: Path, worker: Worker) -> None:
    from evals_app.services.runs.starting import start_run

    from .test_suite_runs import suite_of_twenty

    workspace = suite_of_twenty(tmp_path / "workspace")
    suite = workspace.suites.get()
    cases = [(case, case.document) for case in suite.cases.order_by("position")]
    run = start_run(access_of(workspace, "editor"), editor_of(workspace), suite, cases, "mock")
    seen = set()
    job = run.job
    while not job.finished:
        job = wait_for(job, lambda now: now.finished or (now.done, now.total) not in seen)
        seen.add((job.done, job.total))
    assert job.state == Job.State.DONE, job.error
    assert (job.done, job.total, job.phrase) == (20, 20, "tests done")
    assert (0, 20) in seen
    assert run.results.count() == 20


def test_two_workers_share_the_queue_of_runs(
    tmp_path: Path, tasks_in_the_database: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from evals_app.services.runs.starting import start_run

    from .test_suite_runs import suite_of_twenty

    monkeypatch.setenv("AGENTV_RUNS_ENABLED", "true")
    workspace = suite_of_twenty(tmp_path / "workspace")
    suite = workspace.suites.get()
    account = editor_of(workspace)
    runs = [
        start_run(access_of(workspace, "editor"), account, suite, [(case, case.document)], "mock")
        for case in suite.cases.order_by("position")[:4]
    ]
    workers = [Worker(tasks_in_the_database), Worker(tasks_in_the_database)]
    for worker in workers:
        worker.start()
    try:
        jobs = [finished(run.job) for run in runs]
    finally:
        for worker in workers:
            worker.stop()
    assert [job.state for job in jobs] == [Job.State.DONE] * 4
    assert len({job.worker for job in jobs}) == 2  # each worker ran some of them
    assert sorted(Run.objects.values_list("results__verdict", flat=True)) == [
        "fail",
        "fail",
        "fail",
        "fail",
    ]

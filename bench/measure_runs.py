"""Runs with AgentV (docs/runs.md): the app's overhead around AgentV for one test, and a suite
of many cases run by the worker against the same AgentV run from a terminal."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from .environment import Environment
from .figures import Figure, at_most, progress, report
from .server import db_workers

OVERHEAD_MS = 300  # run requested → result stored, minus AgentV's own time
SUITE_RATIO = 1.2  # a suite run by the worker, against AgentV from a terminal
WAIT_SECONDS = 600


def _suite_text(cases: int) -> str:
    tests = "".join(
        f"  - id: case-{number:04}\n    input: Question {number}\n"
        "    assertions:\n      - type: contains\n        value: fixed answer\n"
        for number in range(cases)
    )
    return f"description: Runs benchmark.\ntests:\n{tests}"


def _workspace(folder: Path, cases: int, name: str) -> object:
    from evals_app.services.imports.folders import import_workspace

    (folder / "evals").mkdir(parents=True)
    (folder / "evals" / "bench.eval.yaml").write_text(_suite_text(cases), encoding="utf-8")
    return import_workspace(folder, name).workspace


def measure_runs(environment: Environment, folder: Path, suite_cases: int) -> list[Figure]:
    """One test run in this process (the worker's code path, no queue wait), then a suite of
    `suite_cases` cases queued for two `db_worker` processes, and the same suite in a
    terminal."""
    from django.test import override_settings

    immediate = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    with override_settings(AGENTV_RUNS_ENABLED=True, TASKS=immediate):
        figures = _one_test(folder)
    with override_settings(AGENTV_RUNS_ENABLED=True):
        figures += _suite(environment, folder, suite_cases)
    return figures


def _one_test(folder: Path) -> list[Figure]:
    """The best of five runs of one test, in this process: the time from asking to the stored
    result, minus AgentV's own."""
    from django.contrib.auth.models import User

    from evals_app.permissions import WorkspaceAccess
    from evals_app.services.runs.starting import start_run

    account = User.objects.get(username="bench")
    one = _workspace(folder / "one", 1, "bench-runs-one")
    suite = one.suites.get()  # type: ignore[attr-defined]
    access = WorkspaceAccess(one, "owner", is_superuser=False)  # type: ignore[arg-type]
    case = suite.cases.get()
    overheads = []
    for _ in range(5):
        start = time.perf_counter()
        run = start_run(access, account, suite, [(case, case.document)], "mock")
        elapsed = time.perf_counter() - start
        run.refresh_from_db()
        overheads.append(1000 * (elapsed - (run.agentv_seconds or 0)))
    return [report(Figure("run_one_test_overhead", min(overheads), "ms", at_most(OVERHEAD_MS)))]


def _suite(environment: Environment, folder: Path, suite_cases: int) -> list[Figure]:
    """A suite queued for two workers, from asking to its results stored, against AgentV
    alone from a terminal."""
    from django.contrib.auth.models import User

    from evals_app.permissions import WorkspaceAccess
    from evals_app.services.runs.agentv_cli import agentv_command
    from evals_app.services.runs.starting import start_run

    account = User.objects.get(username="bench")
    progress(f"running a suite of {suite_cases} cases on two workers")
    many = _workspace(folder / "many", suite_cases, "bench-runs-many")
    many_suite = many.suites.get()  # type: ignore[attr-defined]
    many_access = WorkspaceAccess(many, "owner", is_superuser=False)  # type: ignore[arg-type]
    cases = [(item, item.document) for item in many_suite.cases.order_by("position")]
    with db_workers(environment, 2, {"AGENTV_RUNS_ENABLED": "true"}) as workers:
        # Running workers, as deployed: each has started Django and asked AgentV its version.
        warm_ups = [start_run(many_access, account, many_suite, cases[:1], "mock") for _ in workers]
        for warm_up in warm_ups:
            _wait(warm_up)
        start = time.perf_counter()
        run = _wait(start_run(many_access, account, many_suite, cases, "mock"))
        suite_seconds = time.perf_counter() - start
    run.refresh_from_db()
    if run.job.state != "done":
        raise RuntimeError(f"the suite run did not finish: {run.job.state} {run.job.error}")
    terminal = _terminal_seconds(agentv_command(), suite_cases)
    ratio = suite_seconds / terminal
    return [
        report(Figure(f"run_suite_{suite_cases}_two_workers", suite_seconds, "s")),
        report(Figure(f"run_suite_{suite_cases}_agentv_alone", run.agentv_seconds or 0, "s")),
        report(Figure(f"agentv_suite_{suite_cases}_terminal", terminal, "s")),
        report(Figure("run_suite_vs_terminal", ratio, "x", at_most(SUITE_RATIO))),
    ]


def _wait(run: Any) -> Any:
    """`run` once its job has finished (or the wait is over)."""
    start = time.perf_counter()
    while time.perf_counter() - start < WAIT_SECONDS:
        run.job.refresh_from_db()
        if run.job.finished:
            break
        time.sleep(0.02)  # the worker is another process: its end shows when it commits
    return run


def _terminal_seconds(command: list[str], cases: int) -> float:
    """`agentv eval` of the same suite as a person would type it."""
    with tempfile.TemporaryDirectory(prefix="agentv-bench-terminal-") as folder:
        root = Path(folder)
        (root / "bench.eval.yaml").write_text(_suite_text(cases), encoding="utf-8")
        (root / "targets.yaml").write_text(
            "targets:\n  - name: mock\n    provider: mock\n    response: fixed answer\n",
            encoding="utf-8",
        )
        start = time.perf_counter()
        subprocess.run(
            [*command, "eval", "run", "bench.eval.yaml", "--targets", "targets.yaml"]
            + ["--target", "mock", "--output", "results"],
            cwd=root,
            env={**os.environ, "NO_COLOR": "1"},
            capture_output=True,
            check=True,
        )
        return time.perf_counter() - start

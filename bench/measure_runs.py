"""Runs with AgentV (docs/runs.md): a run of one test and of a suite, asked of running
workers as deployed (`db_worker`, woken when a run is queued), against the bare AgentV CLI run
in the same benchmark run on the same file (the one the app writes for it)."""

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

OVERHEAD_MS = 300  # a run of one test, asked to stored, over the bare CLI on the same file
SUITE_RATIO = 1.2  # a suite run by the workers, against the bare CLI on the same file
TRIES = 5  # the best of these, for the app and for the CLI alike
SUITE_TRIES = 2
WAIT_SECONDS = 600


def _suite_text(cases: int) -> str:
    tests = "".join(
        f"  - id: case-{number:04}\n    input: Question {number}\n"
        "    assertions:\n      - type: contains\n        value: fixed answer\n"
        for number in range(cases)
    )
    return f"description: Runs benchmark.\ntests:\n{tests}"


def _workspace(folder: Path, cases: int, name: str) -> Any:
    from evals_app.services.imports.folders import import_workspace

    (folder / "evals").mkdir(parents=True)
    (folder / "evals" / "bench.eval.yaml").write_text(_suite_text(cases), encoding="utf-8")
    return import_workspace(folder, name).workspace


def measure_runs(environment: Environment, folder: Path, suite_cases: int) -> list[Figure]:
    """One test run `TRIES` times, then a suite of `suite_cases` cases, asked of two running
    workers; then the bare CLI on the same files."""
    from django.contrib.auth.models import User
    from django.test import override_settings

    from evals_app.permissions import WorkspaceAccess
    from evals_app.services.runs.starting import start_run

    account = User.objects.get(username="bench")
    one = _workspace(folder / "one", 1, "bench-runs-one")
    many = _workspace(folder / "many", suite_cases, "bench-runs-many")
    one_suite, many_suite = one.suites.get(), many.suites.get()
    one_cases = [(case, case.document) for case in one_suite.cases.all()]
    many_cases = [(case, case.document) for case in many_suite.cases.order_by("position")]
    variables = {"AGENTV_RUNS_ENABLED": "true"}
    with (
        override_settings(AGENTV_RUNS_ENABLED=True),
        db_workers(environment, 2, variables, ("db_worker",)) as workers,
    ):
        access = WorkspaceAccess(one, "owner", is_superuser=False)
        many_access = WorkspaceAccess(many, "owner", is_superuser=False)
        # Running workers, as deployed: each has started Django and asked AgentV its version.
        for warm_up in [start_run(access, account, one_suite, one_cases, "mock") for _ in workers]:
            _wait(warm_up)
        # The app and the bare CLI take turns, so that both meet the machine's same load.
        progress(f"running one test {TRIES} times, the app and the bare CLI in turn")
        app_ones, cli_ones = [], []
        for _ in range(TRIES):
            app_ones.append(
                _timed(lambda: _wait(start_run(access, account, one_suite, one_cases, "mock")))
            )
            cli_ones.append(_cli_seconds(one_suite))
        progress(f"running a suite of {suite_cases} cases {SUITE_TRIES} times, in turn too")
        app_suites, cli_suites = [], []
        for _ in range(SUITE_TRIES):
            start = time.perf_counter()
            run = _wait(start_run(many_access, account, many_suite, many_cases, "mock"))
            app_suites.append(time.perf_counter() - start)
            cli_suites.append(_cli_seconds(many_suite))
    run.refresh_from_db()
    if run.job.state != "done":
        raise RuntimeError(f"the suite run did not finish: {run.job.state} {run.job.error}")
    app_one, cli_one = min(app_ones), min(cli_ones)
    app_suite, cli_suite = min(app_suites), min(cli_suites)
    return [
        report(Figure("run_one_test_app", app_one * 1000, "ms")),
        report(Figure("run_one_test_cli", cli_one * 1000, "ms")),
        report(
            Figure("run_one_test_overhead", (app_one - cli_one) * 1000, "ms", at_most(OVERHEAD_MS))
        ),
        report(Figure(f"run_suite_{suite_cases}_two_workers", app_suite, "s")),
        report(Figure(f"run_suite_{suite_cases}_agentv_alone", run.agentv_seconds or 0, "s")),
        report(Figure(f"agentv_suite_{suite_cases}_terminal", cli_suite, "s")),
        report(Figure("run_suite_vs_terminal", app_suite / cli_suite, "x", at_most(SUITE_RATIO))),
    ]


def _timed(action: Any) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def _wait(run: Any) -> Any:
    """`run` once its job has finished (or the wait is over)."""
    start = time.perf_counter()
    while time.perf_counter() - start < WAIT_SECONDS:
        run.job.refresh_from_db()
        if run.job.finished:
            break
        time.sleep(0.005)  # the worker is another process: its end shows when it commits
    return run


def _cli_seconds(suite: Any) -> float:
    """`agentv eval run` as a person would type it, on the file a run of every case of `suite`
    hands AgentV, with the same providers file."""
    from evals_app.services.runs.agentv_cli import agentv_command, agentv_status
    from evals_app.services.runs.generations import generation_of
    from evals_app.services.runs.spellings import run_spelling
    from evals_app.services.runs.targets import run_targets

    generation = generation_of(agentv_status().version)
    documents = [case.document for case in suite.cases.order_by("position")]
    spelling = run_spelling(generation, suite, documents, suite.workspace.file_texts())
    with tempfile.TemporaryDirectory(prefix="agentv-bench-terminal-") as folder:
        root = Path(folder)
        eval_file = root / "bench.eval.yaml"
        eval_file.write_text(spelling.text, encoding="utf-8")
        providers = generation.providers_file(root, run_targets())
        command = generation.command(
            agentv_command(), eval_file, providers, "mock", "", root / "results"
        )
        start = time.perf_counter()
        subprocess.run(
            command,
            cwd=root,
            env={**os.environ, "NO_COLOR": "1"},
            capture_output=True,
            check=True,
        )
        return time.perf_counter() - start

"""A run in the app reports, test by test, what `agentv eval run` reports on the file the app
wrote, for the project's examples and real AgentV files, with whichever AgentV
AGENTV_COMMAND names (docs/runs.md, "AgentV generations")."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from evals_app.models import Case, Job, Suite
from evals_app.services.runs.agentv_cli import agentv_command, agentv_status
from evals_app.services.runs.generations import generation_of
from evals_app.services.runs.run_folder import write_run_folder
from evals_app.services.runs.spellings import run_spelling
from evals_app.services.runs.starting import run_files_problem, start_run
from evals_app.services.runs.targets import run_targets
from tests.conftest import REPOSITORY
from tests.factories import imported_workspace

from .conftest import access_of, editor_of

pytestmark = pytest.mark.django_db

FIXTURES = REPOSITORY / "tests" / "fixtures" / "agentv_examples"
EXAMPLES = REPOSITORY / "examples"
# The examples' suites a run with commands off may run (review.yaml has a code grader).
EXAMPLE_SUITES = [
    "evals/basics/single-turn.yaml",
    "evals/support/escalation.yml",
    "evals/today/help-widget.eval.yaml",
]
REAL_FILES = sorted(path.name for path in FIXTURES.glob("*.eval.yaml"))
# Verdicts as AgentV's index says them (`execution_status`).
VERDICTS = {"ok": "pass", "quality_failure": "fail", "execution_error": "error"}
SKIPPED = re.compile(r"Skipping (?:incomplete )?test:? '?(?P<test>[^'.:]+)")

Outcome = tuple[str, str, float | None, list[tuple[str, float | None]]]


def runnable(suite: Suite) -> list[Case]:
    """The suite's cases a run with commands off runs (a `script` grader's case is left out)."""
    cases = suite.cases.order_by("position")
    return [case for case in cases if not run_files_problem(suite, [case.document])]


def cli_outcomes(suite: Suite, folder: Path) -> list[Outcome]:
    """What the CLI reports, read from its own index and output (not by the app's reader),
    when run by hand on the suite file the app writes for it."""
    generation = generation_of(agentv_status().version)
    documents = [case.document for case in runnable(suite)]
    files = suite.workspace.file_texts()
    spelling = run_spelling(generation, suite, documents, files)
    eval_file = write_run_folder(
        folder, suite, documents, {suite.path: spelling.text, **spelling.files}
    )
    providers = generation.providers_file(folder, run_targets())
    output = folder / "results"
    command = generation.command(agentv_command(), eval_file, providers, "mock", "", output)
    done = subprocess.run(
        command, cwd=folder / "workspace", capture_output=True, text=True, check=False
    )
    outcomes: list[Outcome] = []
    index = generation.index(output)
    lines = index.read_text(encoding="utf-8").splitlines() if index.exists() else []
    for line in lines:
        entry: dict[str, Any] = json.loads(line)
        graders = [(str(s.get("name")), s.get("score")) for s in entry.get("scores") or []]
        verdict = VERDICTS[entry["execution_status"]]
        if all(sample.get("status") == "skipped" for sample in entry.get("samples") or [{}]):
            verdict = "skipped"
        outcomes.append((entry["test_id"], verdict, entry.get("score"), graders))
    # AgentV 5 prints a skipped test's line twice (as it reads the file, then as it runs it).
    skipped = SKIPPED.finditer(re.sub(r"\x1b\[[0-9;]*m", "", done.stderr))
    for test_id in dict.fromkeys(match["test"].strip() for match in skipped):
        outcomes.append((test_id, "skipped", None, []))
    return sorted(outcomes, key=lambda outcome: outcome[0])


def app_outcomes(suite: Suite) -> list[Outcome]:
    """What the app stored of its run of every case of `suite` with the mock target."""
    workspace = suite.workspace
    cases = [(case, case.document) for case in runnable(suite)]
    run = start_run(access_of(workspace, "editor"), editor_of(workspace), suite, cases, "mock")
    run.job.refresh_from_db()
    assert run.job.state == Job.State.DONE, run.job.error
    return sorted(
        (
            (
                result.test_id,
                result.verdict,
                result.score,
                [(g["name"], g["score"]) for g in result.graders if g["verdict"] != "not run"],
            )
            for result in run.results.all()
        ),
        key=lambda outcome: outcome[0],
    )


@pytest.mark.parametrize("path", EXAMPLE_SUITES)
def test_an_example_suite_gives_what_the_cli_gives(path: str, tmp_path: Path) -> None:
    suite = Suite.objects.get(workspace=imported_workspace(EXAMPLES), path=path)
    assert app_outcomes(suite) == cli_outcomes(suite, tmp_path)


@pytest.mark.parametrize("name", REAL_FILES)
def test_a_real_agentv_file_gives_what_the_cli_gives(name: str, tmp_path: Path) -> None:
    repository = tmp_path / "repository"
    (repository / "evals").mkdir(parents=True)
    shutil.copy(FIXTURES / name, repository / "evals" / name)
    suite = Suite.objects.get(workspace=imported_workspace(repository))
    outcomes = app_outcomes(suite)
    assert outcomes == cli_outcomes(suite, tmp_path / "cli")
    assert outcomes  # AgentV ran the file's tests

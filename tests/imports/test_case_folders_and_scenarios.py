"""Tests AgentV reads from a folder of cases (`tests: ./cases/`) and from `scenarios:` are
imported as it reads them: formatted, previewed, read-only, their files kept as written
(docs/formats.md, "Cases in other files", "Scenarios")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals_app.eval_files.errors import EvalFileError
from evals_app.models import Workspace
from evals_app.services.cases.editing import save_case
from evals_app.services.exports.exporting import FORMATTED_FILE, export_workspace
from tests.factories import imported_workspace, write_files

pytestmark = pytest.mark.django_db

FILES = {
    "evals/folder.eval.yaml": "prompts:\n  - '{{ input }}'\ntests: ./cases/\n",
    "evals/cases/greeting/case.yaml": "vars: {input: Hello?}  # no id: the folder's name\n",
    "evals/scenarios.eval.yaml": (
        "prompts:\n  - 'Review {{ severity }} {{ diff }}'\n"
        "scenarios:\n  - config:\n      - vars: {severity: high}\n"
        "    tests:\n      - vars: {diff: critical fix}\n"
    ),
}


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    return imported_workspace(write_files(tmp_path / "ws", FILES), "Folders")


def test_each_case_of_a_folder_and_each_scenario_test_is_imported(workspace: Workspace) -> None:
    suites = {
        suite.path: (suite.file_format, suite.referenced_by, suite.read_only)
        for suite in workspace.suites.all()
    }
    cases = dict(workspace.suites.values_list("cases__case_id", "path"))

    assert suites == {
        "evals/cases/greeting/case.yaml": ("yaml-case", "evals/folder.eval.yaml", True),
        "evals/folder.eval.yaml": ("yaml", "", False),
        "evals/scenarios.eval.yaml": ("scenarios", "", True),
    }
    assert cases["greeting"] == "evals/cases/greeting/case.yaml"
    assert cases["scenario-1-1-1"] == "evals/scenarios.eval.yaml"


def test_their_rows_are_formatted_as_agentv_runs_them(workspace: Workspace, tmp_path: Path) -> None:
    folder = export_workspace(workspace, tmp_path / "out").folder
    rows = [json.loads(line) for line in (folder / FORMATTED_FILE).read_text().splitlines()]

    assert {(r["id"], r["file"], r["cases_file"], r["question"]) for r in rows} == {
        ("greeting", "evals/folder.eval.yaml", "evals/cases/greeting/case.yaml", "Hello?"),
        ("scenario-1-1-1", "evals/scenarios.eval.yaml", None, "Review high critical fix"),
    }


def test_export_writes_their_files_as_they_were(workspace: Workspace, tmp_path: Path) -> None:
    folder = export_workspace(workspace, tmp_path / "out").folder
    kept = ["evals/cases/greeting/case.yaml", "evals/scenarios.eval.yaml"]

    assert {path: (folder / path).read_text() for path in kept} == {p: FILES[p] for p in kept}


@pytest.mark.parametrize(
    ("case_id", "message"),
    [
        ("greeting", "the cases of a folder of cases are read-only"),
        ("scenario-1-1-1", "the tests AgentV builds from `scenarios:` are read-only"),
    ],
)
def test_their_cases_cannot_be_saved(workspace: Workspace, case_id: str, message: str) -> None:
    case = workspace.suites.get(cases__case_id=case_id).cases.get(case_id=case_id)

    with pytest.raises(EvalFileError, match=message):
        save_case(case, {**case.document, "criteria": "changed"}, case.version)

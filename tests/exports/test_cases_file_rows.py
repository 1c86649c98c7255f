"""Rows of `formatted.jsonl` for cases kept in a file of cases name the suite AgentV runs in
`file` and the file of cases in `cases_file` (docs/formats.md, "Export")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals_app.models import Workspace
from evals_app.services.exports.exporting import FORMATTED_FILE, export_workspace
from tests.api.api_calls import ApiClient
from tests.factories import api_token, imported_workspace, member, write_files

pytestmark = pytest.mark.django_db

MAIN = """\
prompts:
  - "{{ input }}"
tests:
  - id: inline
    vars: {input: Where is the nearest station?}
  - file://cases/more.jsonl
"""
LISTED = "tests: file://cases/listed.yaml\n"
MORE = '{"id": "from-jsonl", "vars": {"input": "What time is it?"}, "criteria": "A time"}\n'
LISTED_CASES = "- id: from-yaml\n  input_messages: [{role: user, content: Hi}]\n  outcome: Greets\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    root = write_files(
        tmp_path / "ws",
        {
            "evals/main.yaml": MAIN,
            "evals/cases/more.jsonl": MORE,
            "evals/listed.yaml": LISTED,
            "evals/cases/listed.yaml": LISTED_CASES,
        },
    )
    return imported_workspace(root, "Cases files")


def exported_files(workspace: Workspace, out: Path) -> dict[str, tuple[str, str | None]]:
    folder = export_workspace(workspace, out).folder
    rows = [json.loads(line) for line in (folder / FORMATTED_FILE).read_text().splitlines()]
    return {row["id"]: (row["file"], row["cases_file"]) for row in rows}


@pytest.mark.parametrize(
    ("case_id", "file", "cases_file"),
    [
        ("inline", "evals/main.yaml", None),
        ("from-jsonl", "evals/main.yaml", "evals/cases/more.jsonl"),
        ("from-yaml", "evals/listed.yaml", "evals/cases/listed.yaml"),
    ],
)
def test_a_row_names_the_suite_agentv_runs_and_the_file_its_case_is_kept_in(
    workspace: Workspace, tmp_path: Path, case_id: str, file: str, cases_file: str | None
) -> None:
    assert exported_files(workspace, tmp_path / "out")[case_id] == (file, cases_file)


def test_the_api_names_the_suite_agentv_runs_and_the_file_of_cases(workspace: Workspace) -> None:
    api = ApiClient(api_token(member(workspace, "viewer")))

    response = api.get(
        f"/workspaces/{workspace.slug}/formatted", suite="evals/cases/more.jsonl", id="from-jsonl"
    )

    assert response.status_code == 200
    assert {(row["file"], row["cases_file"]) for row in response.json()} == {
        ("evals/main.yaml", "evals/cases/more.jsonl")
    }

"""Cases kept in other files (`tests: file://…`, an entry `- file://…`): each referenced file is a
suite of its own, shown from the file that names it; a CSV file's cases are read-only."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.eval_files.yaml_loader import load_yaml
from evals_app.models import Suite, Workspace
from evals_app.services.exports.exporting import export_workspace
from tests.factories import imported_workspace, write_files

pytestmark = pytest.mark.django_db

MAIN = """\
description: Questions, some of them kept elsewhere
prompts:
  - "{{ input }}"
tests:
  - id: inline
    input: Where is the nearest station?
  - file://cases/more.jsonl
  - id: last
    input: And the next train?
"""
MORE = (
    '{"id": "from-jsonl", "input": "What time is it?", "criteria": "Gives a time"}\n'
    '{"id": "second", "input": [{"role": "user", "content": "Hi"}]}\n'
)
TABLE = "tests: file://rows.csv\n"
ROWS = (
    "id,input,__expected\n"
    "row-1,How far is the moon?,384400 km\n"
    "row-2,Why is the sky blue?,scattering\n"
)


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    root = write_files(
        tmp_path / "ws",
        {
            "evals/main.yaml": MAIN,
            "evals/cases/more.jsonl": MORE,
            "evals/table.yaml": TABLE,
            "evals/rows.csv": ROWS,
        },
    )
    return imported_workspace(root, "Referenced")


def suite_at(workspace: Workspace, path: str) -> Suite:
    return workspace.suites.get(path=path)


def test_each_referenced_file_is_a_suite_that_names_its_referrer(workspace: Workspace) -> None:
    jsonl, csv = (
        suite_at(workspace, "evals/cases/more.jsonl"),
        suite_at(workspace, "evals/rows.csv"),
    )

    assert (jsonl.file_format, jsonl.referenced_by) == ("jsonl", "evals/main.yaml")
    assert (csv.file_format, csv.referenced_by) == ("csv", "evals/table.yaml")
    assert [case.case_id for case in jsonl.cases.order_by("position")] == ["from-jsonl", "second"]
    assert [case.document for case in csv.cases.order_by("position")] == [
        {"id": "row-1", "vars": {"input": "How far is the moon?"}},
        {"id": "row-2", "vars": {"input": "Why is the sky blue?"}},
    ]


def test_the_suite_page_shows_the_files_its_cases_are_kept_in(
    signed_in: Client, workspace: Workspace
) -> None:
    main = suite_at(workspace, "evals/main.yaml")
    more = suite_at(workspace, "evals/cases/more.jsonl")

    html = signed_in.get(reverse("suite_detail", args=[workspace.slug, main.pk])).content.decode()

    assert "Cases in other files: <code>file://cases/more.jsonl</code>" in html
    assert reverse("suite_detail", args=[workspace.slug, more.pk]) in html


def test_export_writes_the_references_in_their_places_and_each_file_in_its_form(
    workspace: Workspace, tmp_path: Path
) -> None:
    folder = export_workspace(workspace, tmp_path / "out").folder

    assert load_yaml((folder / "evals/main.yaml").read_text()).data == load_yaml(MAIN).data
    assert (folder / "evals/cases/more.jsonl").read_text() == MORE
    assert (folder / "evals/table.yaml").read_text() == TABLE
    assert (folder / "evals/rows.csv").read_text() == ROWS


def test_a_csv_files_cases_open_read_only_and_cannot_be_saved(
    signed_in: Client, workspace: Workspace
) -> None:
    csv = suite_at(workspace, "evals/rows.csv")
    case = csv.cases.get(case_id="row-1")
    url = reverse("case_editor", args=[workspace.slug, csv.pk, case.pk])

    page = signed_in.get(url).content.decode()
    response = signed_in.post(url, {"id": "row-1", "version": "1", "action": "save"})

    assert (
        'id="case-id" name="id" value="row-1" autocomplete="off" spellcheck="false" readonly'
        in (page)
    )
    assert response.status_code == 422
    assert "the cases of a CSV file are read-only" in response.content.decode()
    case.refresh_from_db()
    assert case.version == 1

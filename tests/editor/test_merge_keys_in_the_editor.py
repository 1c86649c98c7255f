"""A case whose values come from a YAML merge key (`<<: *defaults`): the editor and the preview
show it merged, as AgentV reads it; saving keeps the merge key (docs/formats.md, "Merge keys")."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from evals_app.eval_files.merge_keys import merged
from evals_app.models import Case, Workspace
from tests.eval_files.test_merge_keys import FILE
from tests.factories import admin, imported_workspace, write_files
from tests.html_forms import form_fields

pytestmark = pytest.mark.django_db


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    return imported_workspace(write_files(tmp_path / "ws", {"evals/merge.yaml": FILE}), "Merged")


@pytest.fixture
def client(workspace: Workspace) -> Client:
    client = Client()
    client.force_login(admin())
    return client


def editor_url(case: Case, suffix: str = "") -> str:
    return f"/w/{case.suite.workspace.slug}/suites/{case.suite.pk}/cases/{case.pk}/{suffix}"


def editor_form(client: Client, case: Case) -> dict[str, str]:
    return form_fields(client.get(editor_url(case)).content.decode(), "case-form")


def test_the_editor_shows_the_values_a_merge_key_gives(client: Client) -> None:
    form = editor_form(client, Case.objects.get(case_id="greeting"))

    assert form["outcome"] == "Answers politely"
    assert [form["input-0-block-0-value"], form["input-1-block-0-value"]] == ["Be brief.", "Hello"]


def test_the_preview_formats_the_merged_case(client: Client) -> None:
    case = Case.objects.get(case_id="greeting")
    form = editor_form(client, case)
    form["input-1-block-0-value"] = "Good evening"

    html = client.post(editor_url(case, "preview/"), form, HTTP_HX_REQUEST="true").content.decode()

    assert "Be brief." in html and "Good evening" in html


def test_saving_the_unchanged_form_keeps_the_merge_key(client: Client) -> None:
    case = Case.objects.get(case_id="greeting")
    before = case.document

    response = client.post(editor_url(case), {**editor_form(client, case), "action": "save"})

    assert response.status_code == 302
    case.refresh_from_db()
    assert (case.document, case.version) == (before, 1)


def test_saving_a_changed_merged_value_writes_it_beside_the_merge_key(client: Client) -> None:
    case = Case.objects.get(case_id="greeting")
    before = case.document
    form = {**editor_form(client, case), "outcome": "Answers warmly", "action": "save"}

    client.post(editor_url(case), form)

    case.refresh_from_db()
    assert case.document == {**before, "criteria": "Answers warmly"}
    assert merged(case.document)["input"] == merged(before)["input"]

"""The page "Import tests from another tool": a preview that writes nothing, a session's turn
chosen in it, and the import queued as a job (docs/imports.md, "In the browser")."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import Job, Suite, Workspace
from tests.factories import database_snapshot, member, workspace, zip_archive

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "imports"


@pytest.fixture
def team() -> Workspace:
    return workspace("Team")


def signed_in_as(team: Workspace, role: str) -> Client:
    client = Client()
    client.force_login(member(team, role))
    return client


def upload(path: Path) -> io.BytesIO:
    data = io.BytesIO(path.read_bytes())
    data.name = path.name
    return data


def page(team: Workspace) -> str:
    return reverse("tests_import", args=[team.slug])


def test_the_workspace_page_links_editors_to_the_import(team: Workspace) -> None:
    response = signed_in_as(team, "editor").get(team.get_absolute_url())
    assert f'href="{page(team)}">Import tests from another tool</a>' in response.content.decode()


def test_reviewers_may_not_import_tests(team: Workspace) -> None:
    assert signed_in_as(team, "reviewer").get(page(team)).status_code == 403


def test_the_preview_shows_each_row_and_writes_nothing(team: Workspace) -> None:
    client = signed_in_as(team, "editor")
    before = database_snapshot()
    folder = FIXTURES / "promptfoo" / "csv-metadata"
    response = client.post(
        page(team),
        {
            "uploads": [upload(folder / "promptfooconfig.yaml"), upload(folder / "tests.csv")],
            "suite": "evals/from-promptfoo.yaml",
            "action": "preview",
        },
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Detected format: <strong>promptfoo</strong>" in html
    assert "3 tests would be written into <code>evals/from-promptfoo.yaml</code>" in html
    assert "<code>tests.csv</code> row 2 (line 3)" in html
    assert "prompt: Tell me about quantum physics" in html
    assert "providers: kept in default_test.metadata.imported_unsupported" in html
    assert database_snapshot() == before


def test_a_sessions_turn_is_chosen_in_the_preview(team: Workspace) -> None:
    client = signed_in_as(team, "editor")
    response = client.post(
        page(team),
        {
            "uploads": [upload(FIXTURES / "codex" / "codex_golden.jsonl")],
            "suite": "evals/sessions.yaml",
            "action": "preview",
            "turn:codex_golden.jsonl": "1",
        },
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert '<option value="1" selected>1: List the files in the current directory</option>' in html
    assert "golden-codex-001-turn-1" in html
    assert "trajectory:tool-used" in html


def test_import_queues_the_job_that_writes_the_tests(team: Workspace) -> None:
    client = signed_in_as(team, "editor")
    archive = io.BytesIO(
        zip_archive({"data/marv.jsonl": (FIXTURES / "chat-jsonl" / "marv.jsonl").read_text()})
    )
    archive.name = "chats.zip"
    response = client.post(
        page(team), {"uploads": [archive], "suite": "evals/chats.yaml", "action": "import"}
    )
    job = Job.objects.get()
    assert response.status_code == 302
    assert response["Location"] == job.get_absolute_url()
    assert job.state == Job.State.DONE, job.error
    assert job.result["summary"] == "Imported 3 tests into a new suite evals/chats.yaml."
    assert Suite.objects.get(workspace=team, path="evals/chats.yaml").cases.count() == 3


def test_a_file_that_cannot_be_read_is_said_in_the_preview(team: Workspace) -> None:
    client = signed_in_as(team, "editor")
    broken = io.BytesIO(b"question,__expected\n1,2,3\n")
    broken.name = "tests.csv"
    response = client.post(
        page(team),
        {"uploads": [broken], "suite": "evals/x.yaml", "action": "preview"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 422
    assert "tests.csv:2: this row has 3 fields, the header 2" in response.content.decode()

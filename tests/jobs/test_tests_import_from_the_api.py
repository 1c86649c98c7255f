"""`POST /api/v1/workspaces/{slug}/imports/tests` queues the tests import, which a real worker
runs as `import_tests` does (docs/imports.md, "The API")."""

from __future__ import annotations

import io
from pathlib import Path

from evals_app.models import Case, Job, Suite
from tests import factories
from tests.api.api_calls import API, ApiClient
from tests.workers import Worker

from .test_jobs_from_the_api import followed

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "imports"


def upload(path: Path) -> io.BytesIO:
    data = io.BytesIO(path.read_bytes())
    data.name = path.name
    return data


def test_files_posted_to_the_api_become_tests_in_the_worker(
    transactional_db: None, worker: Worker
) -> None:
    team = factories.workspace("Team")
    api = ApiClient(factories.api_token(factories.member(team, "editor")))
    csv_folder = FIXTURES / "promptfoo" / "csv-metadata"
    queued = api.client.post(
        f"{API}/workspaces/{team.slug}/imports/tests",
        {
            "files": [
                upload(csv_folder / "promptfooconfig.yaml"),
                upload(csv_folder / "tests.csv"),
            ],
            "suite": "evals/from-promptfoo.yaml",
        },
        headers=api.headers,
    )
    job = followed(api, queued)

    assert job["state"] == "done", job["error"]
    assert job["kind"] == "tests"
    assert (
        job["result"]["summary"] == "Imported 3 tests into a new suite evals/from-promptfoo.yaml."
    )
    assert "promptfooconfig.yaml: promptfoo: 3 tests" in job["result"]["lines"]
    assert any(
        line.startswith("Warning: promptfooconfig.yaml: providers")
        for line in job["result"]["lines"]
    )
    imported = Suite.objects.get(workspace=team, path="evals/from-promptfoo.yaml")
    assert imported.cases.count() == 3


def test_a_refused_tests_import_writes_nothing_and_says_why(
    transactional_db: None, worker: Worker
) -> None:
    team = factories.workspace("Team")
    api = ApiClient(factories.api_token(factories.member(team, "editor")))
    broken = io.BytesIO(b'question,__expected\n"What is 2+2?",4\n"broken",row,"here"\n')
    broken.name = "tests.csv"
    queued = api.client.post(
        f"{API}/workspaces/{team.slug}/imports/tests", {"files": [broken]}, headers=api.headers
    )
    job = followed(api, queued)

    assert job["state"] == "failed"
    assert job["error"] == (
        "Nothing was imported: tests.csv:3: this row has 3 fields, the header 2"
    )
    assert not Case.objects.exists()


def test_a_reviewer_may_not_import_tests(transactional_db: None) -> None:
    team = factories.workspace("Team")
    api = ApiClient(factories.api_token(factories.member(team, "reviewer")))
    queued = api.client.post(
        f"{API}/workspaces/{team.slug}/imports/tests",
        {"files": [upload(FIXTURES / "chat-jsonl" / "marv.jsonl")]},
        headers=api.headers,
    )
    assert queued.status_code == 403
    assert not Job.objects.exists()


def test_an_unknown_format_is_refused_before_it_is_queued(transactional_db: None) -> None:
    team = factories.workspace("Team")
    api = ApiClient(factories.api_token(factories.member(team, "editor")))
    queued = api.client.post(
        f"{API}/workspaces/{team.slug}/imports/tests",
        {"files": [upload(FIXTURES / "chat-jsonl" / "marv.jsonl")], "from": "excel"},
        headers=api.headers,
    )
    assert queued.status_code == 409
    assert queued.json()["message"].startswith("Unknown format 'excel'; one of: promptfoo")
    assert not Job.objects.exists()

"""Long work asked for from the API runs in a real worker process (docs/api.md, "Jobs"): the
API queues it with the pages' rights, answers at once, and reports it through `GET /jobs/…`."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from evals_app.models import Case, Job, Workspace
from evals_app.services.cases.editing import save_case
from tests import factories
from tests.api.api_calls import API, ApiClient
from tests.git_repositories import Repository, linked_workspace, suite_yaml
from tests.workers import Worker, until

SUITE = factories.eval_document(factories.simple_case("q1"), factories.simple_case("q2"))
FINISHED = {"done", "failed", "cancelled"}


def followed(api: ApiClient, queued: Any) -> dict[str, Any]:
    """The job the answer `queued` (202) names, read through the API until it has ended."""
    assert queued.status_code == 202, queued.content
    job_id = queued.json()["id"]
    job: dict[str, Any] = {}

    def ended() -> bool:
        job.update(api.get(f"/jobs/{job_id}").json())
        return job["state"] in FINISHED

    until(ended, lambda: f"job {job_id} never finished")
    return job


@pytest.fixture
def workspace(repo: Repository, transactional_db: None) -> Workspace:
    return linked_workspace(repo)


def as_member(workspace: Workspace, role: str) -> ApiClient:
    return ApiClient(factories.api_token(factories.member(workspace, role)))


def test_an_export_from_the_api_runs_in_the_worker_and_is_downloaded(
    workspace: Workspace, worker: Worker
) -> None:
    api = as_member(workspace, "viewer")

    job = followed(api, api.post(f"/workspaces/{workspace.slug}/jobs/export", {}))

    assert job["state"] == "done", job["error"]
    assert job["result"]["summary"] == "Exported 1 suite and 1 case."
    response = api.client.get(job["download"], headers=api.headers)
    names = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content))).namelist()
    assert f"{workspace.slug}/evals/suite.eval.yaml" in names


def test_the_api_only_queues_the_job(workspace: Workspace, tasks_in_the_database: Path) -> None:
    api = as_member(workspace, "viewer")

    queued = api.post(f"/workspaces/{workspace.slug}/jobs/export", {})

    assert queued.status_code == 202
    assert queued.json()["state"] == "queued"
    assert queued.json()["page"] == Job.objects.get().get_absolute_url()


def test_a_zip_import_from_the_api_runs_in_the_worker(
    transactional_db: None, worker: Worker
) -> None:
    api = ApiClient(factories.api_token(factories.user("alice")))
    archive = io.BytesIO(factories.zip_archive({"repo/evals/a.yaml": SUITE}))
    archive.name = "workspace.zip"

    queued = api.client.post(
        f"{API}/imports", {"archive": archive, "name": "From the API"}, headers=api.headers
    )
    job = followed(api, queued)

    assert job["state"] == "done", job["error"]
    assert job["workspace"] == Workspace.objects.get(name="From the API").slug
    assert job["result"]["summary"] == "Imported From the API: 1 suite, 2 cases and 0 files."


def test_check_then_sync_from_the_api_run_in_the_worker(
    workspace: Workspace, repo: Repository, worker: Worker
) -> None:
    api = as_member(workspace, "owner")
    repo.commit({"evals/suite.eval.yaml": suite_yaml(("one", "Changed?"))}, "change")

    check = followed(api, api.post(f"/workspaces/{workspace.slug}/jobs/check", {}))
    commit = check["result"]["apply_commit"]
    sync = followed(api, api.post(f"/workspaces/{workspace.slug}/jobs/sync", {"commit": commit}))

    assert commit == repo.head()
    assert sync["state"] == "done", sync["error"]
    assert Case.objects.get(case_id="one").document["input"] == "Changed?"


def test_a_publish_from_the_api_runs_in_the_worker(
    workspace: Workspace, repo: Repository, worker: Worker
) -> None:
    api = as_member(workspace, "owner")
    case = Case.objects.get(case_id="one")
    save_case(case, {**case.document, "input": "Edited?"}, case.version, None)

    job = followed(api, api.post(f"/workspaces/{workspace.slug}/jobs/publish", {"branch": "main"}))

    assert job["state"] == "done", job["error"]
    assert "Edited?" in repo.show("main", "evals/suite.eval.yaml")


def test_an_upgrade_from_the_api_runs_in_the_worker(transactional_db: None, worker: Worker) -> None:
    workspace = factories.workspace()
    suite = factories.suite(workspace, "evals/old.yaml")
    factories.case(suite, "old-one", outcome="Says hello.")
    api = as_member(workspace, "editor")

    queued = api.post(f"/workspaces/{workspace.slug}/jobs/upgrade", {}, suite="evals/old.yaml")
    job = followed(api, queued)

    assert job["state"] == "done", job["error"]
    assert "criteria" in Case.objects.get(case_id="old-one").document


@pytest.mark.parametrize(
    ("role", "kind", "allowed"),
    [
        ("viewer", "export", True),
        ("viewer", "upgrade", False),
        ("editor", "upgrade", True),
        ("editor", "check", False),
        ("editor", "sync", False),
        ("editor", "publish", False),
        ("owner", "check", True),
    ],
)
def test_each_job_needs_the_role_the_page_needs(
    workspace: Workspace, tasks_in_the_database: Path, role: str, kind: str, allowed: bool
) -> None:
    bodies: dict[str, dict[str, str]] = {"sync": {"commit": "abc"}, "publish": {"branch": "b"}}
    api = as_member(workspace, role)

    response = api.post(
        f"/workspaces/{workspace.slug}/jobs/{kind}",
        bodies.get(kind, {}),
        suite="evals/suite.eval.yaml",
    )

    assert response.status_code == (202 if allowed else 403), response.content
    assert Job.objects.exists() == allowed


@pytest.mark.parametrize(
    ("kind", "body", "refusal"),
    [
        ("export", {"approved_only": True}, "No case of team is approved yet"),
        ("publish", {"branch": "  "}, "Name the branch to publish to."),
    ],
)
def test_a_job_the_page_would_refuse_is_refused_with_the_reason(
    workspace: Workspace, tasks_in_the_database: Path, kind: str, body: Any, refusal: str
) -> None:
    response = as_member(workspace, "owner").post(f"/workspaces/{workspace.slug}/jobs/{kind}", body)

    assert response.status_code == 409
    assert response.json()["message"].startswith(refusal)
    assert not Job.objects.exists()


def test_a_queued_job_is_cancelled_from_the_api(
    workspace: Workspace, tasks_in_the_database: Path
) -> None:
    api = as_member(workspace, "viewer")
    queued = api.post(f"/workspaces/{workspace.slug}/jobs/export", {}).json()

    cancelled = api.post(f"/jobs/{queued['id']}/cancel", {})

    assert cancelled.status_code == 200
    assert cancelled.json()["state"] == "cancelled"
    assert api.get("/jobs").json()["items"][0]["state"] == "cancelled"


@pytest.mark.parametrize(
    "path", ["/jobs/{id}", "/jobs/{id}/download", "/jobs/99999999999999999999"]
)
def test_someone_else_s_job_is_not_found(
    workspace: Workspace, tasks_in_the_database: Path, path: str
) -> None:
    mine = as_member(workspace, "viewer")
    queued = mine.post(f"/workspaces/{workspace.slug}/jobs/export", {}).json()
    stranger = ApiClient(factories.api_token(User.objects.create_user("stranger")))

    assert stranger.get(path.format(id=queued["id"])).status_code == 404
    assert stranger.post(f"/jobs/{queued['id']}/cancel", {}).status_code == 404
    assert Job.objects.get().state == "queued"


def test_an_unfinished_export_has_nothing_to_download(
    workspace: Workspace, tasks_in_the_database: Path
) -> None:
    api = as_member(workspace, "viewer")
    queued = api.post(f"/workspaces/{workspace.slug}/jobs/export", {}).json()

    assert queued["download"] is None
    assert api.get(f"/jobs/{queued['id']}/download").status_code == 404


def test_a_client_without_a_token_is_refused(transactional_db: None) -> None:
    assert Client().post(f"{API}/imports").status_code == 401

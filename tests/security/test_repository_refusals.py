"""No 500 and no secret for repositories (docs/security.md, docs/sync.md "Remotes"): a URL
Python cannot split is refused naming the field, the page and the API alike; Apply takes only
the commit a check showed; the link's secret never reaches an error report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cryptography.fernet import Fernet
from django.test import Client
from django.urls import reverse
from django.views.debug import ExceptionReporter

from evals_app.models import Job, RepositoryRemote, Workspace
from evals_app.services.api_tokens import token_hash, user_for_token
from evals_app.services.repository.credentials import check_secret, encrypt
from tests import factories
from tests.api.api_calls import ApiClient
from tests.git_repositories import linked_workspace, repository, suite_yaml

pytestmark = pytest.mark.django_db

BAD_URLS = ["https://[::1/p", "ssh://[-oProxyCommand=x]/p"]
TOKEN = "ghp_SECRETtoken0987654321"  # noqa: S105


@pytest.fixture
def workspace(settings: Any, tmp_path: Path) -> Workspace:
    settings.AGENTV_REPOSITORIES_DIR = tmp_path / "clones"
    settings.AGENTV_CREDENTIALS_KEY = Fernet.generate_key().decode()
    return factories.workspace("Team evals")


def _owner(workspace: Workspace) -> Any:
    return factories.member(workspace, "owner")


@pytest.mark.parametrize("url", BAD_URLS)
def test_the_page_answers_400_naming_the_url_field(workspace: Workspace, url: str) -> None:
    client = Client()
    client.force_login(_owner(workspace))

    response = client.post(
        reverse("repository_link", args=[workspace.slug]), {"url": url, "branch": "main"}
    )

    assert response.status_code == 400
    assert "Repository URL: The URL cannot be read" in response.content.decode()
    assert not Job.objects.exists()


@pytest.mark.parametrize("url", BAD_URLS)
def test_the_api_answers_400_naming_the_url_field(workspace: Workspace, url: str) -> None:
    api = ApiClient(factories.api_token(_owner(workspace)))

    response = api.post(f"/workspaces/{workspace.slug}/jobs/link", {"url": url})

    assert response.status_code == 400
    assert response.json()["message"].startswith("url: The URL cannot be read")
    assert not Job.objects.exists()


def test_a_token_never_reaches_the_debug_error_page(workspace: Workspace, settings: Any) -> None:
    """With DEBUG on, Django's technical 500 page lists each frame's local variables: the
    link's secret is marked sensitive in every function it passes through."""
    settings.DEBUG = True
    settings.AGENTV_CREDENTIALS_KEY = "not a Fernet key"  # forces an error where it is used
    client = Client(raise_request_exception=False)
    client.force_login(_owner(workspace))

    response = client.post(
        reverse("repository_link", args=[workspace.slug]),
        {
            "url": "https://example.invalid/team/evals.git",
            "branch": "main",
            "credential_kind": "token",
            "secret": TOKEN,
        },
    )

    assert response.status_code == 500
    page = response.content.decode()
    assert "Fernet key must be 32" in page  # the technical page, with its frames
    assert "secret" in page and "********************" in page
    assert TOKEN not in page
    assert not RepositoryRemote.objects.exists()


@pytest.fixture
def linked(tmp_path: Path) -> Workspace:
    repo = repository(tmp_path / "repo")
    repo.commit({"evals/suite.eval.yaml": suite_yaml(("one", "First?"))})
    workspace = linked_workspace(repo)
    repo.commit({"evals/suite.eval.yaml": suite_yaml(("one", "Moved?"))})
    return workspace


def test_apply_from_the_page_without_the_checked_commit_is_refused(linked: Workspace) -> None:
    client = Client()
    client.force_login(_owner(linked))
    base = linked.base_commit

    response = client.post(reverse("repository_sync", args=[linked.slug]), {"commit": ""})

    assert response.status_code == 400
    assert "Apply needs the commit Check for changes showed" in response.content.decode()
    linked.refresh_from_db()
    assert linked.base_commit == base and not Job.objects.exists()


def test_apply_from_the_api_without_the_checked_commit_is_refused(linked: Workspace) -> None:
    api = ApiClient(factories.api_token(_owner(linked)))
    base = linked.base_commit

    response = api.post(f"/workspaces/{linked.slug}/jobs/sync", {"commit": ""})

    assert response.status_code == 400
    assert "Apply needs the commit" in response.json()["message"]
    linked.refresh_from_db()
    assert linked.base_commit == base and not Job.objects.exists()


def test_a_queued_apply_without_a_commit_syncs_nothing(linked: Workspace) -> None:
    """A job queued before the check was required (or by any other way) is refused too."""
    from evals_app.services.jobs.queue import start_job

    base = linked.base_commit

    job = start_job(Job.Kind.SYNC, _owner(linked), linked, commit="")

    job.refresh_from_db()
    assert job.state == Job.State.FAILED and "not at the commit checked" in job.error
    linked.refresh_from_db()
    assert linked.base_commit == base


class _Exploding(str):
    """A secret whose use fails inside the function that holds it: the error report then
    lists that function's frame with the secret among its variables."""

    def strip(self, *arguments: Any) -> str:
        raise RuntimeError("forced")

    def encode(self, *arguments: Any, **options: Any) -> bytes:
        raise RuntimeError("forced")


@pytest.mark.parametrize(
    "call",
    [
        lambda secret: check_secret("token", secret),
        lambda secret: encrypt(secret),
        lambda secret: token_hash(secret),
        lambda secret: user_for_token(secret),
    ],
    ids=["check_secret", "encrypt", "token_hash", "user_for_token"],
)
def test_no_function_holding_a_secret_shows_it_in_an_error_report(call: Any, settings: Any) -> None:
    settings.DEBUG = True
    settings.AGENTV_CREDENTIALS_KEY = Fernet.generate_key().decode()
    try:
        call(_Exploding(TOKEN))
    except RuntimeError as error:
        report = ExceptionReporter(None, type(error), error, error.__traceback__)
        frames = report.get_traceback_frames()
    else:
        pytest.fail("the secret was never used")

    # The app's frames: the test's own (and the exploding string's) hold the secret, of course.
    shown = repr([frame["vars"] for frame in frames if "/evals_app/" in frame["filename"]])
    assert "'********************'" in shown  # the frame's variables are listed, hidden
    assert TOKEN not in shown

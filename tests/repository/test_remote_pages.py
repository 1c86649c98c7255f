"""Linking a repository by URL from the workspace page, and publishing to it (docs/sync.md,
"Remotes")."""

from __future__ import annotations

import copy
import logging
from pathlib import Path
from typing import Any

import pytest
from cryptography.fernet import Fernet
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, Job, RepositoryRemote, Workspace
from evals_app.services.cases.editing import save_case
from tests import factories
from tests.git_repositories import Repository, bare_remote, repository, suite_yaml

pytestmark = pytest.mark.django_db

PATH = "evals/suite.eval.yaml"
TOKEN = "glpat-SECRETtoken987654321"  # noqa: S105


@pytest.fixture
def bare(tmp_path: Path, settings: Any) -> Repository:
    settings.AGENTV_REPOSITORIES_DIR = tmp_path / "clones"
    settings.AGENTV_LOCAL_REPOSITORIES_ROOT = str(tmp_path / "remotes")
    settings.AGENTV_CREDENTIALS_KEY = Fernet.generate_key().decode()
    work = repository(tmp_path / "work")
    work.commit({PATH: suite_yaml(("one", "First?"))})
    return bare_remote(work, tmp_path / "remotes" / "evals.git")


@pytest.fixture
def workspace() -> Workspace:
    return factories.workspace("Team evals")


def _client(workspace: Workspace, role: str, *, staff: bool = False) -> Client:
    client = Client()
    account = factories.member(workspace, role)
    if staff:  # a local repository (file://) is linked by staff accounts only
        account.is_staff = True
        account.save(update_fields=["is_staff"])
    client.force_login(account)
    return client


def _preview(client: Client, workspace: Workspace, **fields: str) -> Any:
    data = {"url": "", "branch": "main", "folder": "", "credential_kind": "", "secret": ""}
    url = reverse("repository_link", args=[workspace.slug])
    return client.post(url, data | fields, follow=True)


def _link(client: Client, workspace: Workspace, **fields: str) -> Any:
    """Preview the link, then confirm the commit the preview showed (the jobs run at once)."""
    preview = _preview(client, workspace, **fields)
    job = Job.objects.filter(kind=Job.Kind.LINK).first()
    if job is None or "link_commit" not in job.result:
        return preview
    confirm = reverse("repository_link_confirm", args=[workspace.slug])
    data = {"preview": str(job.pk), "commit": job.result["link_commit"]}
    return client.post(confirm, data, follow=True)


def test_an_owner_sees_the_link_form_on_an_unlinked_workspace(workspace: Workspace) -> None:
    page = _client(workspace, "owner").get(workspace.get_absolute_url()).content.decode()

    assert "Link a repository" in page
    assert 'for="link-url"' in page and 'for="link-secret"' in page


def test_an_editor_cannot_link_a_repository(workspace: Workspace, bare: Repository) -> None:
    client = _client(workspace, "editor")

    assert "Link a repository" not in client.get(workspace.get_absolute_url()).content.decode()
    assert _link(client, workspace, url=f"file://{bare.path}").status_code == 403
    assert not RepositoryRemote.objects.exists()


def test_linking_from_the_page_imports_the_branch(workspace: Workspace, bare: Repository) -> None:
    client = _client(workspace, "owner", staff=True)

    response = _link(client, workspace, url=f"file://{bare.path}")

    assert f"Linked file://{bare.path} at" in response.content.decode()
    page = client.get(workspace.get_absolute_url()).content.decode()
    assert "agentv-web/team-evals-" in page  # the new branch the Publish form proposes
    assert Case.objects.filter(case_id="one").exists()


def test_a_bad_url_is_refused_with_a_message(workspace: Workspace, bare: Repository) -> None:
    response = _link(_client(workspace, "owner"), workspace, url="http://example.com/x.git")

    assert response.status_code == 400
    assert (
        "The repository was not linked: Repository URL: A repository URL starts with https://"
        in response.content.decode()
    )
    assert not Job.objects.exists()


@pytest.mark.parametrize(
    "url", ["https://[::1/p", "ssh://[-oProxyCommand=x]/p", "https://h:99999/p"]
)
def test_a_url_python_cannot_split_is_refused_naming_the_field(
    workspace: Workspace, bare: Repository, url: str
) -> None:
    response = _preview(_client(workspace, "owner"), workspace, url=url)

    assert response.status_code == 400
    assert "Repository URL: The URL cannot be read" in response.content.decode()
    assert not Job.objects.exists()


def test_a_local_repository_is_linked_by_staff_accounts_only(
    workspace: Workspace, bare: Repository
) -> None:
    response = _preview(_client(workspace, "owner"), workspace, url=f"file://{bare.path}")

    assert response.status_code == 400
    assert "Only a staff account may link a local repository" in response.content.decode()
    assert not Job.objects.exists() and not RepositoryRemote.objects.exists()


def test_the_token_is_not_shown_logged_or_stored_in_plain_text(
    workspace: Workspace, bare: Repository, caplog: pytest.LogCaptureFixture
) -> None:
    client = _client(workspace, "owner")

    with caplog.at_level(logging.DEBUG):
        response = _link(
            client,
            workspace,
            url="https://127.0.0.1:1/team/evals.git",
            credential_kind="token",
            secret=TOKEN,
        )

    assert "The repository was not linked" in response.content.decode()
    assert TOKEN not in response.content.decode()
    assert TOKEN not in caplog.text
    assert not RepositoryRemote.objects.exists()
    assert TOKEN not in repr(factories.database_snapshot())


def test_publish_from_the_page_pushes_and_names_the_branch(
    workspace: Workspace, bare: Repository
) -> None:
    client = _client(workspace, "owner", staff=True)
    _link(client, workspace, url=f"file://{bare.path}")
    case = Case.objects.get(case_id="one")
    document = copy.deepcopy(case.document)
    document["input"] = "First, edited?"
    save_case(case, document, case.version)

    response = client.post(
        reverse("repository_publish", args=[workspace.slug]),
        {"branch": "agentv-web/review-1"},
        follow=True,
    )

    assert "It was pushed to the remote." in response.content.decode()
    assert "First, edited?" in bare.show("agentv-web/review-1", PATH)
    page = client.get(workspace.get_absolute_url()).content.decode()
    assert "Last pushed: <code>agentv-web/review-1</code>" in page

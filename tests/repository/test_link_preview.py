"""Linking a repository is a job with a preview (docs/sync.md, "Remotes"): the worker shows
what the link would change, and links only at the commit the owner confirms."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cryptography.fernet import Fernet
from django.db import connection
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, Job, RepositoryRemote, ReviewStatus, Workspace
from evals_app.services.repository.remotes import LinkRequest, link_remote
from tests import factories
from tests.git_repositories import Repository, bare_remote, repository, suite_yaml

pytestmark = pytest.mark.django_db

PATH = "evals/suite.eval.yaml"


@pytest.fixture
def upstream(tmp_path: Path, settings: Any) -> Repository:
    settings.AGENTV_REPOSITORIES_DIR = tmp_path / "clones"
    settings.AGENTV_LOCAL_REPOSITORIES_ROOT = str(tmp_path / "remotes")
    settings.AGENTV_CREDENTIALS_KEY = Fernet.generate_key().decode()
    work = repository(tmp_path / "work")
    work.commit({PATH: suite_yaml(("one", "First?"))})
    work.git("branch", "other")
    return work


@pytest.fixture
def bare(upstream: Repository, tmp_path: Path) -> Repository:
    return bare_remote(upstream, tmp_path / "remotes" / "evals.git")


@pytest.fixture
def reviewed(tmp_path: Path) -> Workspace:
    """A workspace imported from files (its cases have a base), one case approved with a
    comment thread."""
    folder = factories.write_files(
        tmp_path / "imported", {"evals/old.eval.yaml": suite_yaml(("kept", "A?"), ("rev", "B?"))}
    )
    workspace = factories.imported_workspace(folder, "Team evals")
    case = Case.objects.get(case_id="rev")
    Case.objects.filter(pk=case.pk).update(status=ReviewStatus.APPROVED)
    factories.comment_thread(case, factories.user("dana"), "Looks right.")
    return workspace


def _owner(workspace: Workspace) -> Client:
    account = factories.member(workspace, "owner")
    account.is_staff = True  # a local repository (file://) is for staff accounts
    account.save(update_fields=["is_staff"])
    client = Client()
    client.force_login(account)
    return client


def _preview(client: Client, workspace: Workspace, url: str) -> Job:
    data = {"url": url, "branch": "main", "folder": "", "credential_kind": "", "secret": ""}
    client.post(reverse("repository_link", args=[workspace.slug]), data)
    return Job.objects.filter(kind=Job.Kind.LINK).order_by("-pk").first() or pytest.fail("no job")


def _confirm(client: Client, workspace: Workspace, preview: Job, commit: str) -> Any:
    url = reverse("repository_link_confirm", args=[workspace.slug])
    return client.post(url, {"preview": str(preview.pk), "commit": commit})


def test_the_preview_names_suites_added_and_removed_and_the_cases_removed_with_review_data(
    reviewed: Workspace, bare: Repository
) -> None:
    client = _owner(reviewed)

    preview = _preview(client, reviewed, f"file://{bare.path}")

    assert preview.state == Job.State.DONE, preview.error
    assert "1 suites added, 1 removed" in preview.result["summary"]
    assert "1 of the 2 cases removed have review data" in preview.result["summary"]
    lines = preview.result["lines"]
    assert f"Suite added: {PATH}" in lines
    assert "Suite removed: evals/old.eval.yaml" in lines
    assert "Case removed: evals/old.eval.yaml kept" in lines
    assert "Case removed: evals/old.eval.yaml rev (approved, 1 comment threads)" in lines
    page = client.get(preview.get_absolute_url()).content.decode()
    assert "Link and apply these changes" in page


def test_the_preview_changes_nothing(reviewed: Workspace, bare: Repository) -> None:
    client = _owner(reviewed)
    before = factories.database_snapshot()

    _preview(client, reviewed, f"file://{bare.path}")

    assert factories.database_snapshot() == before
    assert not RepositoryRemote.objects.exists()
    clones = Path(bare.path).parent.parent / "clones"
    assert not any(clones.glob("*")), "the preview's clone is removed"


def test_confirming_links_at_the_commit_the_preview_showed(
    reviewed: Workspace, bare: Repository
) -> None:
    client = _owner(reviewed)
    preview = _preview(client, reviewed, f"file://{bare.path}")

    _confirm(client, reviewed, preview, preview.result["link_commit"])

    reviewed.refresh_from_db()
    assert reviewed.base_commit == bare.head("main")
    assert RepositoryRemote.objects.get().url == f"file://{bare.path}"
    assert set(Case.objects.values_list("case_id", flat=True)) == {"one"}


@pytest.mark.parametrize("commit", ["", "0" * 40])
def test_confirming_another_or_no_commit_is_refused(
    reviewed: Workspace, bare: Repository, commit: str
) -> None:
    client = _owner(reviewed)
    preview = _preview(client, reviewed, f"file://{bare.path}")

    response = _confirm(client, reviewed, preview, commit)

    assert response.status_code == 400
    assert "Commit: The preview showed commit" in response.content.decode()
    reviewed.refresh_from_db()
    assert not reviewed.linked and Job.objects.count() == 1


def test_a_branch_that_moved_since_the_preview_is_not_linked(
    reviewed: Workspace, bare: Repository, upstream: Repository
) -> None:
    client = _owner(reviewed)
    preview = _preview(client, reviewed, f"file://{bare.path}")
    upstream.commit({PATH: suite_yaml(("one", "First?"), ("two", "Second?"))})
    upstream.git("push", "-q", str(bare.path), "main")

    _confirm(client, reviewed, preview, preview.result["link_commit"])

    link = Job.objects.filter(kind=Job.Kind.LINK).order_by("-pk").first()
    assert link is not None and link.state == Job.State.FAILED
    assert "not at the commit the preview showed" in link.error
    reviewed.refresh_from_db()
    assert not reviewed.linked and not RepositoryRemote.objects.exists()
    assert Case.objects.filter(case_id="rev").exists()


def test_following_another_branch_is_previewed_then_applied(
    bare: Repository, upstream: Repository
) -> None:
    upstream.git("checkout", "-q", "other")
    upstream.commit({PATH: suite_yaml(("one", "First?"), ("three", "Third?"))})
    upstream.git("push", "-q", str(bare.path), "other")
    workspace = factories.workspace("Team evals")
    client = _owner(workspace)
    _confirm(
        client,
        workspace,
        first := _preview(client, workspace, f"file://{bare.path}"),
        first.result["link_commit"],
    )

    client.post(reverse("repository_relink", args=[workspace.slug]), {"branch": "other"})
    preview = Job.objects.filter(kind=Job.Kind.LINK).order_by("-pk").first()
    assert preview is not None and preview.state == Job.State.DONE, preview and preview.error
    assert "1 added" in preview.result["summary"]
    assert not Case.objects.filter(case_id="three").exists()
    _confirm(client, workspace, preview, preview.result["link_commit"])

    workspace.refresh_from_db()
    assert workspace.repository_branch == "other"
    assert RepositoryRemote.objects.get().branch == "other"
    assert Case.objects.filter(case_id="three").exists()


def test_the_commit_is_read_outside_any_transaction(bare: Repository) -> None:
    """A large repository is read for seconds: on SQLite a transaction open meanwhile would
    hold the one writer, and every save would wait for it."""
    reading: list[int] = []
    outer = len(connection.atomic_blocks)  # the test's own transaction

    def progress(done: int, total: int, phrase: str) -> None:
        if "reading the commit" in phrase:
            reading.append(len(connection.atomic_blocks) - outer)

    link_remote(
        factories.workspace(),
        LinkRequest(url=f"file://{bare.path}", branch="main"),
        progress=progress,
    )

    assert reading == [0]

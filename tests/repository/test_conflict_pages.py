"""Conflicts are visible: the workspace and suite pages count and link them, the suite's filters
find them, and the Publish form refuses them or publishes the other cases (docs/sync.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, Workspace
from evals_app.services.repository.sync import sync_repository
from tests import factories
from tests.git_repositories import Repository, linked_workspace, repository, suite_yaml

pytestmark = pytest.mark.django_db

edit = factories.edit_input

PATH = "evals/suite.eval.yaml"
ORIGINAL = suite_yaml(("one", "First?"), ("two", "Second?"), ("three", "Third?"))


@pytest.fixture
def repo(tmp_path: Path) -> Repository:
    made = repository(tmp_path / "repo")
    made.commit({PATH: ORIGINAL}, "evals")
    return made


@pytest.fixture
def workspace(repo: Repository) -> Workspace:
    """A linked workspace whose case `two` is in conflict: changed here and by a teammate."""
    linked = linked_workspace(repo)
    edit("two", "Second, in the app?")
    repo.commit({PATH: ORIGINAL.replace("Second?", "Second, by a teammate?")}, "teammate")
    sync_repository(linked)
    return Workspace.objects.get(pk=linked.pk)


@pytest.fixture
def owner(workspace: Workspace) -> Client:
    client = Client()
    client.force_login(factories.member(workspace, "owner"))
    return client


def editor_url(case: Case) -> str:
    return reverse("case_editor", args=[case.suite.workspace.slug, case.suite_id, case.pk])


def suite_url(workspace: Workspace) -> str:
    return reverse("suite_detail", args=[workspace.slug, workspace.suites.get().pk])


def test_the_workspace_page_counts_and_links_open_conflicts(
    owner: Client, workspace: Workspace
) -> None:
    html = owner.get(workspace.get_absolute_url()).content.decode()

    assert "1 open conflict<" in html
    assert f'href="{editor_url(Case.objects.get(case_id="two"))}">two</a>' in html
    assert f'href="{suite_url(workspace)}?conflicts=open">{PATH}</a>' in html


def test_a_workspace_without_conflicts_shows_none(owner: Client, workspace: Workspace) -> None:
    Case.objects.update(theirs_document=None)

    html = owner.get(workspace.get_absolute_url()).content.decode()

    assert "open conflict" not in html


def test_the_suite_page_counts_and_links_its_open_conflicts(
    owner: Client, workspace: Workspace
) -> None:
    html = owner.get(suite_url(workspace)).content.decode()

    assert "1 open conflict<" in html
    url = editor_url(Case.objects.get(case_id="two"))
    assert f'<a href="{url}" class="badge conflict">conflict</a>' in html


def test_the_conflicts_filter_lists_only_cases_in_conflict(
    owner: Client, workspace: Workspace
) -> None:
    response = owner.get(suite_url(workspace), {"conflicts": "open"})

    listed = [summary.case.case_id for summary in response.context["summaries"]]
    assert listed == ["two"]
    assert "1 of 3 cases shown" in response.content.decode()


def test_the_filter_for_cases_not_in_conflict_leaves_them_out(
    owner: Client, workspace: Workspace
) -> None:
    response = owner.get(suite_url(workspace), {"conflicts": "none"})

    assert [summary.case.case_id for summary in response.context["summaries"]] == ["one", "three"]


def test_publish_with_an_open_conflict_is_refused_and_names_the_case(
    owner: Client, repo: Repository, workspace: Workspace
) -> None:
    edit("one", "First, better?")

    response = owner.post(
        reverse("repository_publish", args=[workspace.slug]), {"branch": "review"}, follow=True
    )

    # Publish runs as a job: its page says why, and the workspace page links the case.
    assert f"Nothing was published: 1 case in conflict with the repository: {PATH} two." in (
        response.content.decode()
    )
    html = owner.get(workspace.get_absolute_url()).content.decode()
    assert f'href="{editor_url(Case.objects.get(case_id="two"))}">two</a>' in html
    assert "review" not in repo.git("branch", "--list")


def test_publishing_the_other_cases_publishes_the_rest_and_says_which_were_held_back(
    owner: Client, repo: Repository, workspace: Workspace
) -> None:
    edit("one", "First, better?")

    response = owner.post(
        reverse("repository_publish", args=[workspace.slug]),
        {"branch": "review", "skip_conflicts": "on"},
        follow=True,
    )

    html = response.content.decode()
    assert "Published 1 changed case as" in html
    assert f"Held back, in conflict with the repository (its version kept): {PATH} two." in html
    text = repo.show("review", PATH)
    assert "First, better?" in text
    assert "Second, by a teammate?" in text

"""The linked repository from the pages: check for changes, apply, publish, resolve conflicts.

Every row of the three-way rule (docs/sync.md) through the check page and Apply, on real git.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, Workspace
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
    return linked_workspace(repo)


@pytest.fixture
def owner(client: Client, workspace: Workspace) -> Client:
    client.force_login(factories.member(workspace, "owner"))
    return client


def editor_url(case: Case) -> str:
    return reverse("case_editor", args=[case.suite.workspace.slug, case.suite_id, case.pk])


def check(client: Client, workspace: Workspace) -> str:
    response = client.get(reverse("repository_changes", args=[workspace.slug]))
    assert response.status_code == 200
    return response.content.decode()


def apply(client: Client, workspace: Workspace, commit: str) -> None:
    url = reverse("repository_sync", args=[workspace.slug])
    response = client.post(url, {"commit": commit})
    assert response.status_code == 302


def test_the_workspace_page_shows_the_linked_repository(
    owner: Client, repo: Repository, workspace: Workspace
) -> None:
    html = owner.get(workspace.get_absolute_url()).content.decode()

    assert "Repository" in html
    assert str(repo.path.resolve()) in html
    assert "<code>main</code>" in html
    assert repo.head()[:12] in html
    assert "Check for changes" in html
    assert "Publish" in html


def test_an_editor_sees_the_repository_but_not_its_forms(
    client: Client, workspace: Workspace
) -> None:
    client.force_login(factories.member(workspace, "editor"))

    html = client.get(workspace.get_absolute_url()).content.decode()

    assert "Base commit" in html
    assert "Check for changes" not in html
    assert client.post(reverse("repository_check", args=[workspace.slug])).status_code == 403


@pytest.mark.parametrize(
    ("change", "kind"),
    [
        ("none", "unchanged"),
        ("files", "updated"),
        ("same", "base moved"),
        ("different", "conflict"),
        ("added", "added"),
        ("removed", "removed"),
        ("removed-changed", "conflict"),
    ],
)
def test_every_row_of_the_rule_is_checked_then_applied(
    owner: Client, repo: Repository, workspace: Workspace, change: str, kind: str
) -> None:
    files = {
        "none": ORIGINAL,
        "files": suite_yaml(("one", "First?"), ("two", "Theirs?"), ("three", "Third?")),
        "same": suite_yaml(("one", "First?"), ("two", "Both?"), ("three", "Third?")),
        "different": suite_yaml(("one", "First?"), ("two", "Theirs?"), ("three", "Third?")),
        "added": ORIGINAL + "  - id: four\n    input: Fourth?\n    expected_output: Yes.\n",
        "removed": suite_yaml(("one", "First?"), ("three", "Third?")),
        "removed-changed": suite_yaml(("one", "First?"), ("three", "Third?")),
    }[change]
    if change == "same":
        edit("two", "Both?")
    if change in ("different", "removed-changed"):
        edit("two", "Mine?")
    commit = repo.commit({PATH: files})
    before = list(Case.objects.values_list("pk", "version", "document", "theirs_document"))

    html = check(owner, workspace)

    assert (
        f'<th scope="row">{kind}</th><td class="num">{3 if kind == "unchanged" else 1}</td>' in html
    )
    assert list(Case.objects.values_list("pk", "version", "document", "theirs_document")) == before
    if kind != "unchanged":
        assert f'<span class="badge">{kind}</span> <code>{PATH}</code>' in html
        assert "Formatted question" in html and "YAML" in html

    apply(owner, workspace, commit)

    workspace.refresh_from_db()
    assert workspace.base_commit == commit
    ids = list(Case.objects.order_by("position").values_list("case_id", flat=True))
    expected = {
        "added": ["one", "two", "three", "four"],
        "removed": ["one", "three"],
    }.get(change, ["one", "two", "three"])
    assert ids == expected
    if kind == "conflict":
        assert Case.objects.get(case_id="two").in_conflict


def test_the_editor_shows_a_conflict_with_both_versions(
    owner: Client, repo: Repository, workspace: Workspace
) -> None:
    edit("two", "Mine?")
    apply(owner, workspace, repo.commit({PATH: ORIGINAL.replace("Second?", "Theirs?")}))

    html = owner.get(editor_url(Case.objects.get(case_id="two"))).content.decode()

    assert "The repository changed this case too" in html
    assert "Take theirs" in html and "Keep mine" in html
    assert "Mine?" in html and "Theirs?" in html
    assert "Formatted question" in html


def test_take_theirs_saves_their_version_as_a_revision_and_clears_the_conflict(
    owner: Client, repo: Repository, workspace: Workspace
) -> None:
    edit("two", "Mine?")
    apply(owner, workspace, repo.commit({PATH: ORIGINAL.replace("Second?", "Theirs?")}))
    case = Case.objects.get(case_id="two")

    owner.post(
        reverse("case_resolve", args=[workspace.slug, case.suite_id, case.pk]),
        {"resolution": "theirs"},
    )

    case.refresh_from_db()
    assert case.document["input"] == "Theirs?"
    assert not case.in_conflict
    assert case.base_document == case.document
    assert case.revisions.latest("number").summary == "took the repository's version"
    assert "The repository changed" not in owner.get(editor_url(case)).content.decode()


def test_keep_mine_keeps_the_app_version_and_moves_the_base(
    owner: Client, repo: Repository, workspace: Workspace
) -> None:
    edit("two", "Mine?")
    apply(owner, workspace, repo.commit({PATH: ORIGINAL.replace("Second?", "Theirs?")}))
    case = Case.objects.get(case_id="two")
    version = case.version

    owner.post(
        reverse("case_resolve", args=[workspace.slug, case.suite_id, case.pk]),
        {"resolution": "mine"},
    )

    case.refresh_from_db()
    assert case.document["input"] == "Mine?"
    assert case.version == version
    assert not case.in_conflict
    assert case.base_document["input"] == "Theirs?"
    # The next check finds the case settled: the repository's version is its base now.
    assert '<span class="badge">conflict' not in check(owner, workspace)


def test_take_theirs_of_a_removal_deletes_the_case(
    owner: Client, repo: Repository, workspace: Workspace
) -> None:
    edit("two", "Mine?")
    apply(owner, workspace, repo.commit({PATH: suite_yaml(("one", "First?"), ("three", "Third?"))}))
    case = Case.objects.get(case_id="two")

    owner.post(
        reverse("case_resolve", args=[workspace.slug, case.suite_id, case.pk]),
        {"resolution": "theirs"},
    )

    assert not Case.objects.filter(case_id="two").exists()


def test_a_viewer_cannot_resolve_a_conflict(
    client: Client, repo: Repository, workspace: Workspace
) -> None:
    edit("two", "Mine?")
    owner = factories.member(workspace, "owner")
    client.force_login(owner)
    apply(client, workspace, repo.commit({PATH: ORIGINAL.replace("Second?", "Theirs?")}))
    case = Case.objects.get(case_id="two")
    client.force_login(factories.member(workspace, "viewer"))

    url = reverse("case_resolve", args=[workspace.slug, case.suite_id, case.pk])
    assert client.post(url, {"resolution": "theirs"}).status_code == 403
    assert 'value="theirs"' not in client.get(editor_url(case)).content.decode()


def test_the_publish_form_commits_on_the_branch(
    owner: Client, repo: Repository, workspace: Workspace
) -> None:
    edit("two", "Published?")

    response = owner.post(
        reverse("repository_publish", args=[workspace.slug]),
        {"branch": "review", "message": "From the page"},
        follow=True,
    )

    assert "Published 1 changed case as" in response.content.decode()
    assert "Published?" in repo.show("review", PATH)
    assert repo.git("log", "-1", "--format=%s", "review").strip() == "From the page"


def test_the_publish_form_says_why_a_moved_branch_is_refused(
    owner: Client, repo: Repository, workspace: Workspace
) -> None:
    edit("two", "Published?")
    moved = repo.commit({"other.txt": "x\n"})

    response = owner.post(
        reverse("repository_publish", args=[workspace.slug]), {"branch": "main"}, follow=True
    )

    assert "Nothing was published: branch &#x27;main&#x27; is at" in response.content.decode()
    assert repo.head("main") == moved

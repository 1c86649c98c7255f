"""`manage.py publish_evals`: one commit of what export writes, plumbing only, never a rewrite."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from evals_app.models import Case, ReviewStatus, Workspace
from evals_app.services.exports.exporting import exported_texts
from evals_app.services.review import workflow as review_workflow
from tests import factories
from tests.git_repositories import Repository, linked_workspace, repository, suite_yaml

pytestmark = pytest.mark.django_db

edit = factories.edit_input

PATH = "evals/suite.eval.yaml"
ORIGINAL = suite_yaml(("one", "First?"), ("two", "Second?"))


@pytest.fixture
def repo(tmp_path: Path) -> Repository:
    made = repository(tmp_path / "repo")
    made.commit({PATH: ORIGINAL, "src/app.py": "print('hi')\n"}, "evals")
    return made


@pytest.fixture
def workspace(repo: Repository) -> Workspace:
    return linked_workspace(repo)


def publish(*arguments: str) -> str:
    out = StringIO()
    call_command("publish_evals", "--workspace", "team", *arguments, stdout=out)
    return out.getvalue().strip()


def approve(case: Case) -> None:
    reviewer = factories.user(f"rev-{case.case_id}", None)
    review_workflow.move(case, reviewer, review_workflow.Action.SUBMITTED)
    review_workflow.move(case, reviewer, review_workflow.Action.APPROVED)


def test_publish_commits_exactly_what_export_writes_on_a_new_branch(
    repo: Repository, workspace: Workspace
) -> None:
    edit("two", "Second, better?")
    base = repo.head()

    commit = publish("--branch", "evals-review")

    assert repo.head("evals-review") == commit
    assert repo.git("rev-parse", f"{commit}^").strip() == base
    for path, text in exported_texts(Workspace.objects.get(pk=workspace.pk)):
        assert repo.show(commit, path) == text
    assert "Second, better?" in repo.show(commit, PATH)
    assert repo.show(commit, "src/app.py") == "print('hi')\n"  # files of the repository stay
    assert "formatted.jsonl" not in repo.git("ls-tree", "-r", "--name-only", commit)


def test_publish_leaves_the_work_tree_index_and_checked_out_branch_alone(
    repo: Repository, workspace: Workspace
) -> None:
    edit("two", "Second, better?")
    repo.write({"notes.txt": "work in progress\n"})
    repo.git("add", "notes.txt")
    status_before = repo.git("status", "--porcelain")
    index_before = repo.git("ls-files", "--stage")
    head_before = repo.head()

    publish("--branch", "main")

    assert repo.git("symbolic-ref", "HEAD").strip() == "refs/heads/main"
    assert repo.git("ls-files", "--stage") == index_before
    assert (repo.path / PATH).read_text() == ORIGINAL
    assert repo.head() != head_before  # main moved forward; the work tree did not follow
    assert repo.git("rev-parse", "HEAD~1").strip() == head_before
    assert "notes.txt" in status_before


def test_the_message_lists_changed_cases_with_who_approved_them(
    repo: Repository, workspace: Workspace
) -> None:
    approve(edit("two", "Second, better?"))
    edit("one", "First, unreviewed?")

    commit = publish("--branch", "review", "--message", "Reviewed this week")

    message = repo.git("log", "-1", "--format=%B", commit)
    assert message.startswith("Reviewed this week\n")
    assert f"{PATH}:\n- changed one (not approved)\n- changed two (approved by rev-two)\n" in (
        message
    )


def test_approved_only_keeps_the_base_content_of_cases_not_approved(
    repo: Repository, workspace: Workspace
) -> None:
    approve(edit("two", "Second, approved?"))
    edit("one", "First, unreviewed?")

    commit = publish("--branch", "review", "--approved-only")

    text = repo.show(commit, PATH)
    assert "Second, approved?" in text
    assert "First?" in text
    assert "First, unreviewed?" not in text
    assert Case.objects.get(case_id="one").base_document["input"] == "First?"


def test_the_base_moves_to_the_published_commit(repo: Repository, workspace: Workspace) -> None:
    edit("two", "Second, better?")

    commit = publish("--branch", "review")

    workspace.refresh_from_db()
    assert (workspace.base_commit, workspace.repository_branch) == (commit, "review")
    assert Case.objects.get(case_id="two").base_document["input"] == "Second, better?"
    out = StringIO()
    call_command("sync_evals", "--workspace", "team", stdout=out)
    assert "unchanged: 2" in out.getvalue()


def test_publishing_refuses_a_branch_that_moved_away_from_the_base(
    repo: Repository, workspace: Workspace
) -> None:
    edit("two", "Second, better?")
    moved = repo.commit({"other.txt": "a teammate's commit\n"})

    with pytest.raises(CommandError, match="branch 'main' is at .*Sync with that branch first"):
        publish("--branch", "main")

    assert repo.head("main") == moved
    assert Case.objects.get(case_id="two").status == ReviewStatus.DRAFT


def test_a_suite_deleted_in_the_app_is_deleted_in_the_commit(
    repo: Repository, workspace: Workspace
) -> None:
    workspace.suites.get().delete()

    commit = publish("--branch", "review")

    assert PATH not in repo.git("ls-tree", "-r", "--name-only", commit)


def test_nothing_changed_makes_no_commit(repo: Repository, workspace: Workspace) -> None:
    assert publish("--branch", "review").startswith("Nothing to publish")
    assert "review" not in repo.git("branch", "--list")


def test_an_invalid_branch_name_is_refused(workspace: Workspace) -> None:
    edit("two", "Second, better?")
    with pytest.raises(CommandError, match="not a valid branch name"):
        publish("--branch", "bad..name")


def test_a_workspace_in_a_folder_of_the_repository_publishes_into_that_folder(
    tmp_path: Path,
) -> None:
    repo = repository(tmp_path / "mono")
    repo.commit({f"agent/{PATH}": ORIGINAL, "service/main.py": "pass\n"})
    linked_workspace(Repository(repo.path / "agent"))
    edit("two", "Second, better?")

    commit = publish("--branch", "review")

    assert "Second, better?" in repo.show(commit, f"agent/{PATH}")
    assert repo.git("ls-tree", "-r", "--name-only", commit).split() == [
        f"agent/{PATH}",
        "service/main.py",
    ]

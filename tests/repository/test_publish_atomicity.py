"""Publish is atomic from the user's side (docs/sync.md, "Publishing"): names are checked before
anything is written, the database commits before the branch moves, a crash in between is
finished or undone by the next publish or sync, and the repository's hooks never run."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import ActivityRecord, Case, Workspace
from evals_app.services.repository import pending_publish, publishing
from evals_app.services.repository.git import GitError
from evals_app.services.repository.publishing import PublishRefused, publish_workspace
from evals_app.services.repository.sync import sync_repository
from tests import factories
from tests.git_repositories import Repository, linked_workspace, repository, suite_yaml

pytestmark = pytest.mark.django_db

edit = factories.edit_input

PATH = "evals/suite.eval.yaml"
ORIGINAL = suite_yaml(("one", "First?"), ("two", "Second?"))


class Crash(BaseException):
    """A process killed between two steps: nothing after it runs, nothing is cleaned up."""


@pytest.fixture
def repo(tmp_path: Path) -> Repository:
    made = repository(tmp_path / "repo")
    made.commit({PATH: ORIGINAL}, "evals")
    return made


@pytest.fixture
def workspace(repo: Repository) -> Workspace:
    return linked_workspace(repo)


def crash_before_the_branch_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    def crash(*arguments: Any) -> None:
        raise Crash

    monkeypatch.setattr(pending_publish.git_repository, "move_branch", crash)


def published_records(workspace: Workspace) -> int:
    return ActivityRecord.objects.filter(
        workspace=workspace, action=ActivityRecord.Action.PUBLISHED
    ).count()


@pytest.mark.parametrize(
    ("branch", "why"),
    [
        ("@", "not a valid branch name: '@'"),
        ("a..b", "not a valid branch name: 'a..b'"),
        ("@{-1}", "not a valid branch name"),
        ("HEAD", "not a valid branch name"),
        ("-d", "not a valid branch name"),
        ("b" * 251, "is 251 characters long, more than the 250"),
        ("b" * 256, "is 256 characters long, more than the 250"),
    ],
)
def test_an_invalid_branch_name_is_refused_before_anything_is_written(
    repo: Repository, workspace: Workspace, branch: str, why: str
) -> None:
    edit("two", "Second, better?")
    refs_before = repo.git("for-each-ref")
    objects_before = repo.git("count-objects")

    with pytest.raises(PublishRefused, match=why) as refused:
        publish_workspace(workspace, branch)

    assert "moved" not in str(refused.value)
    assert repo.git("for-each-ref") == refs_before
    assert repo.git("count-objects") == objects_before
    stored = Workspace.objects.get(pk=workspace.pk)
    assert (stored.base_commit, stored.repository_branch) == (repo.head(), "main")
    assert Case.objects.get(case_id="two").base_document["input"] == "Second?"


def test_a_branch_name_as_long_as_the_column_is_published(
    repo: Repository, workspace: Workspace
) -> None:
    edit("two", "Second, better?")
    branch = "b" * 250

    result = publish_workspace(workspace, branch)

    assert repo.head(f"refs/heads/{branch}") == result.commit
    assert Workspace.objects.get(pk=workspace.pk).repository_branch == branch


def test_a_crash_before_the_branch_moves_is_finished_by_the_next_publish(
    repo: Repository, workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    edit("two", "Second, better?")
    base = repo.head()
    with monkeypatch.context() as patched:
        crash_before_the_branch_moves(patched)
        with pytest.raises(Crash):
            publish_workspace(workspace, "main")
    stored = Workspace.objects.get(pk=workspace.pk)
    assert repo.head("main") == base  # the database holds the publish; the branch does not
    assert stored.pending_publish is not None

    result = publish_workspace(Workspace.objects.get(pk=workspace.pk), "main")

    commit = stored.base_commit
    assert result.commit is None  # nothing left to publish: the app's own commit was placed
    assert repo.head("main") == commit
    assert repo.git("rev-parse", f"{commit}^").strip() == base
    assert Workspace.objects.get(pk=workspace.pk).pending_publish is None
    assert published_records(workspace) == 1


def test_a_crash_before_the_branch_moves_is_finished_by_the_next_sync(
    repo: Repository, workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    edit("two", "Second, better?")
    with monkeypatch.context() as patched:
        crash_before_the_branch_moves(patched)
        with pytest.raises(Crash):
            publish_workspace(workspace, "main")
    commit = Workspace.objects.get(pk=workspace.pk).base_commit

    synced, report = sync_repository(Workspace.objects.get(pk=workspace.pk))

    assert synced == commit == repo.head("main")
    assert report.counts["unchanged"] == 2 and not report.changes_anything
    assert Case.objects.get(case_id="two").document["input"] == "Second, better?"


def test_a_crash_then_a_teammate_commit_puts_the_bases_back_and_keeps_the_app_work(
    repo: Repository, workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    edit("two", "Second, better?")
    with monkeypatch.context() as patched:
        crash_before_the_branch_moves(patched)
        with pytest.raises(Crash):
            publish_workspace(workspace, "main")
    theirs = repo.commit({PATH: suite_yaml(("one", "First?"), ("two", "Second, theirs?"))})

    synced, report = sync_repository(Workspace.objects.get(pk=workspace.pk))

    # The publish never reached the branch: the case's base is the repository's again, so
    # the teammate's change to the same case is a conflict, not an overwrite.
    assert synced == theirs
    case = Case.objects.get(case_id="two")
    assert case.document["input"] == "Second, better?"
    assert case.theirs_document["input"] == "Second, theirs?"
    assert [outcome.case_id for outcome in report.conflicts] == ["two"]
    assert Workspace.objects.get(pk=workspace.pk).pending_publish is None
    assert published_records(workspace) == 0


def test_a_branch_moved_by_someone_else_during_publish_leaves_the_database_as_before(
    repo: Repository, workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    edit("two", "Second, better?")
    base = repo.head()
    record = publishing._record

    def teammate_commits_meanwhile(*arguments: Any) -> bool:
        recorded = record(*arguments)
        repo.commit({"other.txt": "a teammate's commit\n"})
        return recorded

    monkeypatch.setattr(publishing, "_record", teammate_commits_meanwhile)

    with pytest.raises(PublishRefused, match="could not be placed on branch 'main'"):
        publish_workspace(workspace, "main")

    stored = Workspace.objects.get(pk=workspace.pk)
    assert (stored.base_commit, stored.repository_branch) == (base, "main")
    assert stored.pending_publish is None
    assert workspace.base_commit == base
    case = Case.objects.get(case_id="two")
    assert case.base_document["input"] == "Second?"
    assert case.document["input"] == "Second, better?"
    assert published_records(workspace) == 0


def test_a_tag_named_like_the_followed_branch_does_not_win(
    repo: Repository, workspace: Workspace
) -> None:
    repo.git("tag", "main", repo.head())
    newer = repo.commit({PATH: suite_yaml(("one", "First, newer?"), ("two", "Second?"))})

    synced, _ = sync_repository(workspace)

    assert synced == newer
    assert Case.objects.get(case_id="one").document["input"] == "First, newer?"


def test_publishing_to_a_branch_named_like_a_tag_moves_the_branch(
    repo: Repository, workspace: Workspace
) -> None:
    edit("two", "Second, better?")
    repo.git("tag", "release", repo.head())
    tag_before = repo.head("refs/tags/release")

    result = publish_workspace(workspace, "release")

    assert repo.head("refs/heads/release") == result.commit
    assert repo.head("refs/tags/release") == tag_before


def test_apply_refuses_a_commit_other_than_the_tip_of_the_followed_branch(
    client: Client, repo: Repository, workspace: Workspace
) -> None:
    client.force_login(factories.member(workspace, "owner"))
    old = repo.head()
    repo.commit({PATH: suite_yaml(("one", "First, newer?"), ("two", "Second?"))})
    sync_repository(workspace)
    url = reverse("repository_sync", args=[workspace.slug])

    for posted in (old, "main~1", "HEAD"):
        response = client.post(url, {"commit": posted}, follow=True)

        assert "Nothing was synced" in response.content.decode()
        assert "check for changes again" in response.content.decode()
    assert Case.objects.get(case_id="one").document["input"] == "First, newer?"


def executable(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def test_publish_runs_none_of_the_repositorys_hooks_or_commands(
    repo: Repository, workspace: Workspace, tmp_path: Path
) -> None:
    ran = tmp_path / "ran"
    script = f'#!/bin/sh\necho "$0" >> {ran}\ncat > /dev/null\n'
    for hook in ("reference-transaction", "post-commit", "pre-commit"):
        executable(repo.path / ".git" / "hooks" / hook, script)
        executable(tmp_path / "hooks" / hook, script)
    executable(tmp_path / "gpg", script + "exit 1\n")
    repo.git("config", "core.hooksPath", str(tmp_path / "hooks"))
    repo.git("config", "commit.gpgSign", "true")
    repo.git("config", "gpg.program", str(tmp_path / "gpg"))
    repo.git("config", "core.fsmonitor", str(tmp_path / "gpg"))
    edit("two", "Second, better?")

    result = publish_workspace(workspace, "main")
    sync_repository(Workspace.objects.get(pk=workspace.pk))

    assert repo.head("main") == result.commit
    assert not ran.exists()
    repo.git("update-ref", "refs/heads/probe", result.commit)  # the hook is real: git runs it
    assert ran.exists()


@pytest.mark.parametrize(
    ("crafted", "named"),
    [
        (b"evals/../x.yaml", "evals/.. (an empty, . or .. name)"),
        (b".GIT/config", ".GIT (a name git keeps for itself"),
        (b"docs/.git/hooks/x", "docs/.git (a name git keeps for itself"),
    ],
)
def test_publish_refuses_entries_of_the_followed_branch_git_could_not_check_out(
    repo: Repository, workspace: Workspace, crafted: bytes, named: str
) -> None:
    """A commit made with git's plumbing may hold them; the publish on top would carry them
    into its new root tree, which `git fsck --strict` refuses (hasDotdot, hasDotgit)."""
    repo.commit_raw({crafted: b"tests: []\n"})
    sync_repository(workspace)  # the base is now that commit (the entries are skipped)
    tip = repo.head("main")
    edit("one", "First, edited?")

    with pytest.raises(GitError, match="entries git could not check out") as refused:
        publish_workspace(workspace, "main")

    assert named in str(refused.value)
    assert repo.head("main") == tip
    workspace.refresh_from_db()
    assert workspace.base_commit == tip

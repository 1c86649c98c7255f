"""The git adapter on real repositories: reading a commit, writing trees, moving branches."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals_app.services import git_repository
from tests.git_repositories import Repository, repository


@pytest.fixture
def repo(tmp_path: Path) -> Repository:
    made = repository(tmp_path / "repo")
    made.commit({"a/one.yaml": "one\n", "a/b/two.yaml": "two\n", "top.txt": "top\n"})
    return made


def test_list_files_gives_paths_inside_the_folder(repo: Repository) -> None:
    entries = git_repository.list_files(repo.path, repo.head(), "a")

    assert sorted(entry.name for entry in entries) == ["b/two.yaml", "one.yaml"]
    assert {entry.size for entry in entries} == {4}


def test_symbolic_links_are_listed_with_their_mode(repo: Repository) -> None:
    (repo.path / "link.txt").symlink_to("/etc/passwd")
    commit = repo.commit()

    modes = {e.name: e.mode for e in git_repository.list_files(repo.path, commit, "")}

    assert modes["link.txt"] == "120000"


def test_read_blobs_reads_many_in_one_batch(repo: Repository) -> None:
    entries = git_repository.list_files(repo.path, repo.head(), "")
    empty = git_repository.write_blob(repo.path, b"")
    binary = git_repository.write_blob(repo.path, b"\x00\n\xff")

    blobs = git_repository.read_blobs(repo.path, [e.object_id for e in entries] + [empty, binary])

    assert sorted(blobs[e.object_id] for e in entries) == [b"one\n", b"top\n", b"two\n"]
    assert blobs[empty] == b"" and blobs[binary] == b"\x00\n\xff"


def test_write_tree_changes_and_removes_paths_keeping_the_rest(repo: Repository) -> None:
    base = repo.head()
    blob = git_repository.write_blob(repo.path, b"new\n")

    tree = git_repository.write_tree(
        repo.path,
        git_repository.tree_of(repo.path, base),
        {"a/b/two.yaml": None, "a/c/three.yaml": blob, "top.txt": blob},
    )
    commit = git_repository.commit_tree(repo.path, tree, base, "change\n")

    assert repo.git("ls-tree", "-r", "--name-only", commit).split() == [
        "a/c/three.yaml",
        "a/one.yaml",
        "top.txt",
    ]
    assert repo.show(commit, "top.txt") == "new\n"


def test_move_branch_refuses_a_branch_that_is_not_where_expected(repo: Repository) -> None:
    first = repo.head()
    second = repo.commit({"x.txt": "x\n"})

    with pytest.raises(git_repository.GitError, match="moved while publishing"):
        git_repository.move_branch(repo.path, "main", first, expected=first)

    git_repository.move_branch(repo.path, "side", first, expected=None)
    assert repo.head("side") == first
    assert repo.head("main") == second


def test_a_folder_outside_any_repository_is_not_located(tmp_path: Path) -> None:
    assert git_repository.locate(tmp_path) is None


def test_refs_that_look_like_options_are_refused(repo: Repository) -> None:
    with pytest.raises(git_repository.GitError):
        git_repository.resolve_commit(repo.path, "--all")
    with pytest.raises(git_repository.GitError):
        git_repository.check_branch_name(repo.path, "-d")


def test_a_missing_git_is_an_error_with_a_message(
    repo: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(git_repository, "GIT", str(repo.path / "no-such-git"))

    with pytest.raises(git_repository.GitError, match="git cannot be run"):
        git_repository.resolve_commit(repo.path, "HEAD")
    assert git_repository.locate(repo.path) is None

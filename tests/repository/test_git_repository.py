"""The git adapter on real repositories: reading a commit, writing trees, moving branches."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from evals_app.services.repository import git as git_repository
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


def test_list_files_without_sizes_gives_the_same_files_and_ids(repo: Repository) -> None:
    with_sizes = git_repository.list_files(repo.path, repo.head(), "a")
    without = git_repository.list_files(repo.path, repo.head(), "a", sizes=False)

    assert [(e.name, e.object_id) for e in without] == [(e.name, e.object_id) for e in with_sizes]
    assert {entry.size for entry in without} == {None}


def test_blob_sizes_gives_each_size_and_refuses_a_missing_object(repo: Repository) -> None:
    entries = git_repository.list_files(repo.path, repo.head(), "")
    sizes = git_repository.blob_sizes(repo.path, [entry.object_id for entry in entries])

    assert sizes == {entry.object_id: entry.size for entry in entries}
    with pytest.raises(git_repository.GitError, match="is missing"):
        git_repository.blob_sizes(repo.path, ["0" * 40])


def test_blob_id_is_the_id_git_gives_the_content(repo: Repository) -> None:
    content = "café\r\n".encode()

    assert git_repository.blob_id(content) == git_repository.write_blob(repo.path, content)


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


@pytest.mark.parametrize("name", ["@", "@{-1}", "HEAD", "a..b", "-d", "x.lock", ""])
def test_a_name_that_is_not_a_branch_as_spelled_is_refused(repo: Repository, name: str) -> None:
    with pytest.raises(git_repository.InvalidBranchName, match="not a valid branch name"):
        git_repository.check_branch_name(repo.path, name)


def test_moving_a_branch_of_an_invalid_name_says_so_not_that_it_moved(repo: Repository) -> None:
    with pytest.raises(git_repository.InvalidBranchName, match="not a valid branch name: 'a..b'"):
        git_repository.move_branch(repo.path, "a..b", repo.head(), expected=None)


def test_a_branch_is_resolved_as_a_branch_even_when_a_tag_has_its_name(repo: Repository) -> None:
    first = repo.head()
    repo.git("tag", "main", first)
    second = repo.commit({"x.txt": "x\n"})

    assert git_repository.branch_commit(repo.path, "main") == second


def test_read_blobs_refuses_more_than_the_bytes_allowed_in_all(repo: Repository) -> None:
    blobs = [git_repository.write_blob(repo.path, bytes([n]) * 1000) for n in range(3)]

    assert len(git_repository.read_blobs(repo.path, blobs, max_bytes=3000)) == 3
    with pytest.raises(git_repository.GitError, match="larger than the limit of 2999 bytes"):
        git_repository.read_blobs(repo.path, blobs, max_bytes=2999)


def test_read_blobs_holds_each_blob_once_in_memory(repo: Repository) -> None:
    size = 20 * 2**20
    blob = git_repository.write_blob(repo.path, b"y" * size)

    tracemalloc.start()
    try:
        content = git_repository.read_blobs(repo.path, [blob])[blob]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert len(content) == size
    # Read whole (`capture_output`) then sliced, the content was in memory twice.
    assert peak < 1.25 * size

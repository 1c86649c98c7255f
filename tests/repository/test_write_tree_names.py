"""`write_tree`, the last line of defence: it never writes a tree `git fsck` refuses
or one that turns a symbolic link or a submodule into the app's text, and keeps modes."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evals_app.eval_files.paths import PathError, check_path
from evals_app.services.repository import git as git_repository
from evals_app.services.repository.git import GitError
from tests.git_repositories import Repository, repository


@pytest.fixture
def repo(tmp_path: Path) -> Repository:
    made = repository(tmp_path / "repo")
    made.commit({"prompts/real.md": "Real text.\n", "evals/a.yaml": "tests: []\n"})
    return made


def objects(repo: Repository) -> str:
    return repo.git("count-objects", "-v")


def write(repo: Repository, changes: dict[str, str | None]) -> str:
    return git_repository.write_tree(repo.path, repo.head() + "^{tree}", changes)


@pytest.mark.parametrize(
    "path",
    [
        "",
        ".",
        "..",
        "evals/../../../../tmp/x.yaml",
        "evals//x.yaml",
        "evals/",
        "/evals/x.yaml",
        ".git/config",
        ".GIT/config",
        "evals/.git/hooks/x",
        "git~1/config",
        ".git./config",
        ".g\u200cit/config",
        ".gitmodules",
        "sub/GITMOD~1",
        "evals/nul\x00.yaml",
        "evals/lone\ud800.yaml",
    ],
)
def test_write_tree_refuses_a_name_git_could_not_check_out_before_writing(
    repo: Repository, path: str
) -> None:
    blob = git_repository.write_blob(repo.path, b"app text\n")
    before = objects(repo)

    with pytest.raises(GitError, match="not written to git"):
        write(repo, {path: blob})

    assert objects(repo) == before


def test_write_tree_never_replaces_a_symbolic_link_with_app_text(repo: Repository) -> None:
    (repo.path / "prompts" / "link.md").symlink_to("real.md")
    repo.commit()
    blob = git_repository.write_blob(repo.path, b"App text.\n")

    with pytest.raises(GitError, match="prompts/link.md is a symbolic link"):
        write(repo, {"prompts/link.md": blob})


def test_write_tree_never_puts_a_folder_where_a_symbolic_link_is(repo: Repository) -> None:
    (repo.path / "shared").symlink_to("prompts")
    repo.commit()
    blob = git_repository.write_blob(repo.path, b"App text.\n")

    with pytest.raises(GitError, match="shared is a symbolic link"):
        write(repo, {"shared/new.md": blob})


def test_write_tree_never_replaces_a_submodule_with_app_text(repo: Repository) -> None:
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{repo.head()},vendor/lib")
    repo.git("commit", "-q", "-m", "submodule")
    blob = git_repository.write_blob(repo.path, b"App text.\n")

    with pytest.raises(GitError, match="vendor/lib is a submodule"):
        write(repo, {"vendor/lib": blob})


def test_a_changed_executable_file_stays_executable(repo: Repository) -> None:
    repo.write({"tools/run.sh": "echo one\n"})
    (repo.path / "tools" / "run.sh").chmod(0o755)
    repo.commit()
    blob = git_repository.write_blob(repo.path, b"echo two\n")

    tree = write(repo, {"tools/run.sh": blob, "evals/b.yaml": blob})

    assert repo.mode(tree, "tools/run.sh") == "100755"
    assert repo.mode(tree, "evals/b.yaml") == "100644"


def test_a_file_the_app_did_not_change_keeps_its_mode(repo: Repository) -> None:
    repo.write({"tools/run.sh": "echo one\n"})
    (repo.path / "tools" / "run.sh").chmod(0o755)
    (repo.path / "prompts" / "link.md").symlink_to("real.md")
    repo.commit()
    blob = git_repository.write_blob(repo.path, b"tests: [] # changed\n")

    tree = write(repo, {"evals/a.yaml": blob, "tools/new.md": blob, "prompts/new.md": blob})

    assert repo.mode(tree, "tools/run.sh") == "100755"
    assert repo.mode(tree, "prompts/link.md") == "120000"


def test_the_fsck_check_of_the_test_repositories_finds_a_crafted_dotdot(
    repo: Repository,
) -> None:
    """The fixture that runs `git fsck` after every test (tests/conftest.py) can fail."""
    repo.commit_raw({b"evals/../x.yaml": b"tests: []\n"})

    assert "hasDotdot" in repo.fsck_problems()


GIT_SPELLINGS = [".git", ".GIT", ".git.", "git~1", ".gitmodules", "GITMOD~1", ".g\u200cit"]
ODD = ["..", ".", "", "a\nb", "\x1b[0m", "\u202e", "x\\y", ".git ", "\udcff", "\ud800", "\x00"]
names = st.one_of(
    st.text(st.characters(exclude_categories=()), max_size=8),
    st.sampled_from(GIT_SPELLINGS + ODD),
    st.from_regex(r"[a-z.~ ]{1,8}", fullmatch=True),
)
paths = st.lists(names, min_size=1, max_size=3).map("/".join)


def accepted(path: str) -> bool:
    try:
        check_path(path)
    except PathError:
        return False
    return True


@settings(max_examples=100, deadline=None)
@given(changes=st.lists(paths, min_size=1, max_size=3))
def test_no_path_the_rule_accepts_and_no_tree_write_tree_writes_fails_git_fsck(
    changes: list[str],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        repo = repository(Path(folder))
        blob = git_repository.write_blob(repo.path, b"text\n")
        try:
            tree = git_repository.write_tree(repo.path, None, dict.fromkeys(changes, blob))
        except GitError:
            assert not all(accepted(path) for path in changes)
            return
        commit = repo.git("commit-tree", tree, "-m", "names").strip()
        repo.git("update-ref", "refs/heads/main", commit)

        assert repo.fsck_problems() == ""

"""Publish commits a team can review: one string of one case changed through the API changes
only that case's lines, no more than the value had (+1), and keeps every comment; every other
file keeps its bytes (docs/sync.md, "What is kept byte for byte")."""

from __future__ import annotations

import copy
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from evals_app.eval_files.reading import EvalFileContents, read_eval_file
from evals_app.models import Case, Suite, Workspace
from evals_app.services.cases.editing import save_case
from evals_app.services.cases.list_changes import delete_case, move_case
from evals_app.services.repository.publishing import publish_workspace
from tests.api.api_calls import ApiClient
from tests.conftest import EXAMPLES
from tests.eval_files.faithful_checks import (
    EDIT_SUFFIX,
    edit_problem,
    editable_string,
    get_at,
    set_at,
)
from tests.factories import api_token, member
from tests.git_repositories import Repository, linked_workspace, repository

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FOLDERS = {
    "examples": EXAMPLES,
    "periods": FIXTURES / "periods",
    "upgrade": FIXTURES / "upgrade",
    "today": FIXTURES / "today",
}


def committed_text(repo: Repository, commit: str, path: str) -> str:
    """The file's bytes at `commit`, decoded and nothing else (CRLF and BOM kept)."""
    shown = subprocess.run(
        ["git", "-C", str(repo.path), "cat-file", "blob", f"{commit}:{path}"],
        check=True,
        capture_output=True,
    )
    return shown.stdout.decode("utf-8")


def changed_paths(repo: Repository, before: str, after: str) -> list[str]:
    return repo.git("diff", "--name-only", before, after).split()


def linked_copy(folder: Path, into: Path) -> tuple[Repository, Workspace]:
    repo = repository(into)
    shutil.copytree(folder, into, dirs_exist_ok=True)
    repo.commit(message="evals")
    return repo, linked_workspace(repo)


def put_edit(api: ApiClient, workspace: Workspace, suite: Suite, index: int, path: Any) -> None:
    case = suite.cases.order_by("position")[index]
    document = copy.deepcopy(case.document)
    set_at(document, path, get_at(document, path) + EDIT_SUFFIX)
    response = api.put(
        f"/workspaces/{workspace.slug}/case",
        {"version": case.version, "document": document},
        suite=suite.path,
        id=case.case_id,
    )
    assert response.status_code == 200, response.content


def first_editable(original: str, contents: EvalFileContents) -> tuple[int, Any, int] | None:
    """The first case with a string written out in it: its index, the string's path in it,
    and the lines the string takes."""
    for index in range(len(contents.cases)):
        spot = editable_string(original, contents.format, contents, index)
        if spot is not None:
            return index, *spot
    return None


@pytest.mark.parametrize("name", FOLDERS)
def test_one_string_edited_through_the_api_publishes_only_that_cases_lines(
    name: str, tmp_path: Path
) -> None:
    repo, workspace = linked_copy(FOLDERS[name], tmp_path / "repo")
    api = ApiClient(api_token(member(workspace, "editor")))
    edited = 0
    for suite in workspace.suites.exclude(file_format="csv").order_by("path"):
        base = repo.head()
        original = committed_text(repo, base, suite.path)
        contents = read_eval_file(
            original.removeprefix("\ufeff"),
            file_format=suite.file_format,  # type: ignore[arg-type]
        )
        found = first_editable(original, contents)
        if found is None:
            continue
        index, path, value_lines = found
        put_edit(api, workspace, suite, index, path)

        commit = publish_workspace(Workspace.objects.get(pk=workspace.pk), "main").commit

        assert commit is not None, suite.path
        assert changed_paths(repo, base, commit) == [suite.path]
        written = committed_text(repo, commit, suite.path)
        problem = edit_problem(original, written, contents.format, contents, index, value_lines)
        assert problem is None, (suite.path, problem)
        edited += 1
    assert edited >= 1


@pytest.mark.parametrize("name", FOLDERS)
def test_publishing_an_untouched_workspace_makes_no_commit(name: str, tmp_path: Path) -> None:
    repo, workspace = linked_copy(FOLDERS[name], tmp_path / "repo")
    base = repo.head()

    result = publish_workspace(workspace, "main")

    assert result.commit is None
    assert repo.head() == base


def test_after_a_publish_the_published_text_is_what_the_suite_is_written_from(
    tmp_path: Path,
) -> None:
    repo, workspace = linked_copy(FIXTURES / "today", tmp_path / "repo")
    api = ApiClient(api_token(member(workspace, "editor")))
    suite = workspace.suites.exclude(file_format="csv").order_by("path").first()
    assert suite is not None and suite.source_text is not None
    found = first_editable(suite.source_text, read_eval_file(suite.source_text))
    assert found is not None
    put_edit(api, workspace, suite, found[0], found[1])

    commit = publish_workspace(workspace, "main").commit

    suite.refresh_from_db()
    assert commit is not None
    published = committed_text(repo, commit, suite.path)
    assert suite.source_text == suite.base_source_text == published


def test_a_crlf_file_with_a_bom_keeps_both_when_a_case_is_published(tmp_path: Path) -> None:
    text = (
        "\ufeff# notes\r\ntests:\r\n  - id: one\r\n    input: Hello?\r\n"
        "  # second\r\n  - id: two\r\n    input: Bye?"
    )
    repo = repository(tmp_path / "repo")
    (repo.path / "evals").mkdir()
    (repo.path / "evals/a.eval.yaml").write_bytes(text.encode())
    repo.commit(message="evals")
    workspace = linked_workspace(repo)
    api = ApiClient(api_token(member(workspace, "editor")))
    put_edit(api, workspace, workspace.suites.get(), 1, ("input",))

    commit = publish_workspace(workspace, "main").commit

    assert commit is not None
    written = committed_text(repo, commit, "evals/a.eval.yaml")
    assert written == text.replace("Bye?", "Bye?" + EDIT_SUFFIX)


@pytest.mark.parametrize("change", ["delete", "move"])
def test_a_deleted_or_moved_case_is_published_in_a_file_otherwise_untouched(
    tmp_path: Path, change: str
) -> None:
    text = (
        "# notes\ntests:\n  # first\n  - id: one\n    input: One?\n"
        "  # second\n  - id: two\n    input: Two?\n  - id: three\n    input: Three?\n"
    )
    repo = repository(tmp_path / "repo")
    repo.commit({"evals/a.eval.yaml": text, "evals/b.eval.yaml": text}, "evals")
    workspace = linked_workspace(repo)
    case = Case.objects.get(suite__path="evals/a.eval.yaml", case_id="two")
    if change == "delete":
        delete_case(case)
    else:
        move_case(case, "up")

    commit = publish_workspace(workspace, "main").commit

    assert commit is not None
    assert changed_paths(repo, f"{commit}^", commit) == ["evals/a.eval.yaml"]
    written = committed_text(repo, commit, "evals/a.eval.yaml")
    second = "  # second\n  - id: two\n    input: Two?\n"
    first = "  # first\n  - id: one\n    input: One?\n"
    if change == "delete":
        assert written == text.replace(second, "")
    else:
        assert written == text.replace(first + second, second + first)


def test_a_suite_imported_before_texts_were_kept_is_written_from_its_base_commits_text(
    tmp_path: Path,
) -> None:
    text = "# notes\ntests:\n  - id: one   # first\n    input: 'One?'\n"
    text += "  - id: two\n    input: Two?\n"
    repo = repository(tmp_path / "repo")
    repo.commit({"evals/a.eval.yaml": text}, "evals")
    workspace = linked_workspace(repo)
    Suite.objects.update(source_text=None, base_source_text=None, source_digest="")
    case = Case.objects.get(case_id="two")
    save_case(case, {**case.document, "input": "Deux?"}, case.version, None)

    commit = publish_workspace(workspace, "main").commit

    assert commit is not None
    assert committed_text(repo, commit, "evals/a.eval.yaml") == text.replace("Two?", "Deux?")


def test_an_uncommitted_change_a_linked_import_read_is_published(tmp_path: Path) -> None:
    text = "tests:\n  - id: one\n    input: One?\n"
    repo = repository(tmp_path / "repo")
    repo.commit({"evals/a.eval.yaml": text}, "evals")
    (repo.path / "evals/a.eval.yaml").write_text(text.replace("One?", "Uno?"))
    workspace = linked_workspace(repo)

    commit = publish_workspace(workspace, "main").commit

    assert commit is not None
    assert committed_text(repo, commit, "evals/a.eval.yaml") == text.replace("One?", "Uno?")

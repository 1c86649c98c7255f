"""`manage.py sync_evals`: the three-way rule of docs/sync.md, row by row, on real git."""

from __future__ import annotations

import copy
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from evals_app.eval_files.reading import read_eval_file
from evals_app.models import ActivityRecord, Case, ReviewStatus, Workspace
from evals_app.services.cases.editing import save_case
from evals_app.services.imports.folders import import_workspace
from tests import factories
from tests.git_repositories import Repository, linked_workspace, repository, suite_yaml

pytestmark = pytest.mark.django_db

PATH = "evals/suite.eval.yaml"
ORIGINAL = suite_yaml(("one", "First?"), ("two", "Second?"), ("three", "Third?"))


@pytest.fixture
def repo(tmp_path: Path) -> Repository:
    made = repository(tmp_path / "repo")
    made.commit({PATH: ORIGINAL, "README.md": "A repository\n"}, "evals")
    return made


@pytest.fixture
def workspace(repo: Repository) -> Workspace:
    return linked_workspace(repo)


def sync(*arguments: str, workspace: str = "team") -> list[str]:
    out = StringIO()
    call_command("sync_evals", "--workspace", workspace, *arguments, stdout=out)
    return out.getvalue().splitlines()


def counts(lines: list[str]) -> dict[str, int]:
    found = {}
    for line in lines:
        kind, _, number = line.rpartition(": ")
        if number.isdigit():
            found[kind] = int(number)
    return found


def stored(workspace: Workspace, case_id: str) -> Case:
    return Case.objects.get(suite__workspace=workspace, case_id=case_id)


def parsed(text: str, case_id: str) -> dict[str, Any]:
    return next(case for case in read_eval_file(text).cases if case["id"] == case_id)


def edit_in_app(workspace: Workspace, case_id: str, question: str) -> Case:
    case = stored(workspace, case_id)
    document = copy.deepcopy(case.document)
    document["input"] = question
    return save_case(case, document, case.version, factories.user("editor", password=None))


def test_linking_records_the_repository_folder_branch_and_commit(
    repo: Repository, workspace: Workspace
) -> None:
    assert workspace.repository_path == str(repo.path.resolve())
    assert workspace.repository_folder == ""
    assert workspace.repository_branch == "main"
    assert workspace.base_commit == repo.head()


def test_a_folder_inside_the_repository_is_recorded_as_the_workspace_folder(
    tmp_path: Path,
) -> None:
    repo = repository(tmp_path / "repo")
    repo.commit({f"agent/{PATH}": ORIGINAL})

    workspace = linked_workspace(Repository(repo.path / "agent"))

    assert workspace.repository_folder == "agent"
    assert sync()[:-1] == [
        "updated: 0",
        "base moved: 0",
        "conflict: 0",
        "added: 0",
        "removed: 0",
        "unchanged: 3",
    ]


def test_nothing_changed_on_either_side_changes_nothing(workspace: Workspace) -> None:
    before = list(Case.objects.values_list("pk", "version", "document"))

    assert counts(sync()) == {
        "updated": 0,
        "base moved": 0,
        "conflict": 0,
        "added": 0,
        "removed": 0,
        "unchanged": 3,
    }
    assert list(Case.objects.values_list("pk", "version", "document")) == before


def test_changed_in_the_files_only_takes_their_version_as_a_revision_and_dismisses_approval(
    repo: Repository, workspace: Workspace
) -> None:
    Case.objects.filter(case_id="two").update(status=ReviewStatus.APPROVED)
    changed = suite_yaml(("one", "First?"), ("two", "Second, reworded?"), ("three", "Third?"))
    commit = repo.commit({PATH: changed})

    assert counts(sync())["updated"] == 1

    case = stored(workspace, "two")
    assert case.document == parsed(changed, "two")
    assert case.base_document == case.document
    assert case.status == ReviewStatus.IN_REVIEW
    assert case.revisions.latest("number").summary == f"from the repository at {commit[:12]}"
    assert Workspace.objects.get(pk=workspace.pk).base_commit == commit


def test_changed_on_both_sides_to_the_same_content_moves_the_base(
    repo: Repository, workspace: Workspace
) -> None:
    changed = suite_yaml(("one", "First?"), ("two", "Same new words?"), ("three", "Third?"))
    edited = edit_in_app(workspace, "two", "Same new words?")
    repo.commit({PATH: changed})

    assert counts(sync())["base moved"] == 1

    case = stored(workspace, "two")
    assert case.version == edited.version
    assert case.base_document == case.document == parsed(changed, "two")
    assert case.theirs_document is None


def test_changed_differently_on_both_sides_is_a_conflict_keeping_both(
    repo: Repository, workspace: Workspace
) -> None:
    changed = suite_yaml(("one", "First?"), ("two", "Their words?"), ("three", "Third?"))
    edit_in_app(workspace, "two", "My words?")
    repo.commit({PATH: changed})

    lines = sync()

    assert counts(lines)["conflict"] == 1
    assert f"conflict: {PATH} two" in lines
    case = stored(workspace, "two")
    assert case.document["input"] == "My words?"
    assert case.theirs_document == parsed(changed, "two")
    assert case.base_document == parsed(ORIGINAL, "two")


def test_a_new_case_in_the_files_arrives_as_a_draft_in_the_files_order(
    repo: Repository, workspace: Workspace
) -> None:
    changed = suite_yaml(
        ("one", "First?"), ("new", "New?"), ("two", "Second?"), ("three", "Third?")
    )
    repo.commit({PATH: changed})

    assert counts(sync())["added"] == 1

    assert stored(workspace, "new").status == ReviewStatus.DRAFT
    order = Case.objects.filter(suite__workspace=workspace).order_by("position")
    assert [case.case_id for case in order] == ["one", "new", "two", "three"]


def test_removed_in_the_files_and_unchanged_in_the_app_is_removed_and_recorded(
    repo: Repository, workspace: Workspace
) -> None:
    repo.commit({PATH: suite_yaml(("one", "First?"), ("three", "Third?"))})

    assert counts(sync())["removed"] == 1

    assert not Case.objects.filter(case_id="two").exists()
    record = ActivityRecord.objects.get(action=ActivityRecord.Action.CASE_DELETED)
    assert record.subject == "two"
    assert "removed in the repository at" in record.detail


def test_removed_in_the_files_but_changed_in_the_app_is_a_conflict(
    repo: Repository, workspace: Workspace
) -> None:
    edit_in_app(workspace, "two", "Still needed?")
    repo.commit({PATH: suite_yaml(("one", "First?"), ("three", "Third?"))})

    lines = sync()

    assert f"conflict: {PATH} two" in lines
    case = stored(workspace, "two")
    assert case.removed_in_repository
    assert case.document["input"] == "Still needed?"


def test_cases_only_the_app_has_stay_after_their_predecessor(
    repo: Repository, workspace: Workspace
) -> None:
    suite = workspace.suites.get()
    factories.case(suite, "mine")  # made in the app, at the end: after "three"
    # Moved up, between "two" and "three" (positions have gaps: one free after "two").
    two = Case.objects.get(suite=suite, case_id="two").position
    Case.objects.filter(case_id="mine").update(position=two + 1)
    repo.commit({PATH: suite_yaml(("three", "Third?"), ("two", "Second?"), ("one", "First?"))})

    sync()

    order = Case.objects.filter(suite=suite).order_by("position")
    assert [case.case_id for case in order] == ["three", "two", "mine", "one"]


def test_a_dry_run_reports_the_same_outcomes_and_changes_nothing(
    repo: Repository, workspace: Workspace
) -> None:
    edit_in_app(workspace, "two", "My words?")
    repo.commit({PATH: suite_yaml(("one", "Changed?"), ("two", "Theirs?"), ("new", "New?"))})
    before = list(Case.objects.values_list("pk", "version", "document", "theirs_document"))

    dry = sync("--dry-run")

    assert list(Case.objects.values_list("pk", "version", "document", "theirs_document")) == before
    assert Workspace.objects.get(pk=workspace.pk).base_commit == workspace.base_commit
    assert dry[:-1] == sync()[:-1]


def test_the_files_are_read_from_the_commit_never_from_the_work_tree(
    repo: Repository, workspace: Workspace
) -> None:
    repo.write({PATH: suite_yaml(("one", "Uncommitted?"))})

    assert counts(sync())["unchanged"] == 3


def test_ref_names_the_commit_to_read(repo: Repository, workspace: Workspace) -> None:
    first = repo.head()
    repo.commit({PATH: suite_yaml(("one", "First?"))})
    repo.git("tag", "older", first)

    assert counts(sync("--ref", "older"))["unchanged"] == 3
    assert counts(sync("--ref", "main"))["removed"] == 2


def test_a_workspace_without_a_repository_is_refused() -> None:
    factories.workspace("plain")

    with pytest.raises(CommandError, match="not linked to a git repository"):
        sync(workspace="plain")


def test_an_unknown_ref_is_refused(workspace: Workspace) -> None:
    with pytest.raises(CommandError, match="no commit named 'nowhere'"):
        sync("--ref", "nowhere")


def test_a_case_renamed_in_the_app_is_still_the_same_case(
    repo: Repository, workspace: Workspace
) -> None:
    case = stored(workspace, "two")
    save_case(case, {**case.document, "id": "deux"}, case.version)

    assert counts(sync())["unchanged"] == 3

    repo.commit({PATH: suite_yaml(("one", "First?"), ("two", "Theirs?"), ("three", "Third?"))})
    lines = sync()

    assert f"conflict: {PATH} deux" in lines
    assert counts(lines)["added"] == 0
    order = Case.objects.filter(suite__workspace=workspace).order_by("position")
    assert [case.case_id for case in order] == ["one", "deux", "three"]


def test_a_long_run_of_cases_only_the_app_has_keeps_its_place(
    repo: Repository, workspace: Workspace
) -> None:
    suite = workspace.suites.get()
    for number in range(1500):  # deeper than Python's recursion limit
        factories.case(suite, f"mine-{number}")
    repo.commit({PATH: suite_yaml(("three", "Third?"), ("one", "First?"), ("two", "Second?"))})

    sync()

    # They followed "three" in the app, and follow it still.
    order = Case.objects.filter(suite=suite).order_by("position").values_list("case_id", flat=True)
    assert list(order) == ["three", *(f"mine-{n}" for n in range(1500)), "one", "two"]


def test_only_the_import_command_links_a_workspace(repo: Repository) -> None:
    # A .zip upload or `local_setup` imports a folder that merely happens to sit in a work tree.
    assert not import_workspace(repo.path, "uploaded").workspace.linked

    call_command("import_evals", str(repo.path), "--workspace", "linked", stdout=StringIO())

    assert Workspace.objects.get(name="linked").linked

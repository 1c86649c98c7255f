"""Importing a folder again into its workspace: the three-way rule (docs/sync.md) without git."""

from __future__ import annotations

import copy
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from evals_app.models import Case, Comment, Suite, WorkspaceFile
from evals_app.services.cases.editing import save_case
from evals_app.services.imports.folders import import_workspace
from tests import factories
from tests.git_repositories import suite_yaml

pytestmark = pytest.mark.django_db

PATH = "evals/suite.eval.yaml"


def write(folder: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(text, encoding="utf-8")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "team"
    write(root, {PATH: suite_yaml(("one", "First?"), ("two", "Second?"))})
    import_workspace(root, "team")
    return root


def edit(case_id: str, question: str) -> None:
    case = Case.objects.get(case_id=case_id)
    document = copy.deepcopy(case.document)
    document["input"] = question
    save_case(case, document, case.version, factories.user(f"ed-{case_id}", None))


def test_a_case_changed_only_in_the_files_takes_their_version_and_keeps_its_comments(
    folder: Path,
) -> None:
    case = Case.objects.get(case_id="two")
    factories.comment_thread(case, factories.user("reviewer", None), "Is this right?")
    write(folder, {PATH: suite_yaml(("one", "First?"), ("two", "Reworded?"))})

    summary = import_workspace(folder, "team")

    assert summary.sync is not None and summary.sync.counts["updated"] == 1
    case.refresh_from_db()
    assert case.document["input"] == "Reworded?"
    assert case.revisions.latest("number").summary == "from the files"
    assert Comment.objects.filter(thread__case=case).count() == 1


def test_a_case_changed_on_both_sides_is_a_conflict_not_an_overwrite(folder: Path) -> None:
    edit("two", "Mine?")
    write(folder, {PATH: suite_yaml(("one", "First?"), ("two", "Theirs?"))})

    import_workspace(folder, "team")

    case = Case.objects.get(case_id="two")
    assert case.document["input"] == "Mine?"
    assert case.theirs_document["input"] == "Theirs?"


def test_the_command_prints_the_outcomes_and_a_dry_run_changes_nothing(folder: Path) -> None:
    write(folder, {PATH: suite_yaml(("one", "Changed?"), ("two", "Second?"), ("three", "New?"))})
    out = StringIO()

    call_command("import_evals", str(folder), "--workspace", "team", "--dry-run", stdout=out)

    assert "updated: 1" in out.getvalue() and "added: 1" in out.getvalue()
    assert Case.objects.get(case_id="one").document["input"] == "First?"
    assert not Case.objects.filter(case_id="three").exists()


def test_file_headers_follow_the_rule(folder: Path) -> None:
    write(folder, {PATH: suite_yaml(("one", "First?")).replace("Sync tests", "Renamed")})

    import_workspace(folder, "team")

    suite = Suite.objects.get(path=PATH)
    assert suite.document["description"] == suite.base_document["description"] == "Renamed"


def test_a_header_changed_on_both_sides_keeps_the_app_version_and_is_reported(
    folder: Path,
) -> None:
    suite = Suite.objects.get(path=PATH)
    suite.document = {**suite.document, "description": "Ours"}
    suite.save()
    write(
        folder,
        {PATH: suite_yaml(("one", "First?"), ("two", "Second?")).replace("Sync tests", "Theirs")},
    )

    summary = import_workspace(folder, "team")

    assert summary.sync is not None and summary.sync.suite_conflicts == [PATH]
    assert Suite.objects.get(path=PATH).document["description"] == "Ours"


def test_stored_files_follow_the_rule(tmp_path: Path) -> None:
    root = tmp_path / "team"
    config = ".agentv/config.yaml"
    write(root, {PATH: suite_yaml(("one", "First?")), config: "guideline_patterns: ['a/**']\n"})
    import_workspace(root, "team")
    write(root, {config: "guideline_patterns: ['b/**']\n"})

    import_workspace(root, "team")

    assert WorkspaceFile.objects.get(path=config).text == "guideline_patterns: ['b/**']\n"

"""Each case's stored summary (turns, role markers, warnings) is what formatting it gives now.

The suite page lists stored summaries and never recomputes them: a save of a case stores its
new summary; a change of the workspace's files or guideline patterns marks the summaries it
may change out of date and queues the worker's refresh (`refresh_workspace`), which these
tests run in place of the worker.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django_tasks_db.models import DBTaskResult

from evals_app.eval_files.yaml_dumper import dump_yaml
from evals_app.models import Case, Suite, Workspace
from evals_app.services.cases.editing import paste_case, save_case
from evals_app.services.cases.list_changes import duplicate_case
from evals_app.services.cases.summaries import (
    SUMMARY_FIELDS,
    is_current,
    refresh_summaries,
    refresh_workspace,
)
from evals_app.services.imports.folders import import_workspace
from evals_app.services.profiles.workspace_formatter import WorkspaceFormatter
from evals_app.services.suites.eval_files import summarize_cases
from evals_app.services.suites.fields import change_profile
from evals_app.services.workspaces.configs import set_guideline_patterns
from evals_app.services.workspaces.files import create_file, delete_file, update_file
from tests import factories
from tests.factories import eval_document, simple_case, write_files

# Refreshes are queued for a worker, not run at once: the tests see what a page sees meanwhile.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_in_the_database")]


def summary(case: Case) -> dict[str, Any]:
    case.refresh_from_db()
    return {name: getattr(case, name) for name in SUMMARY_FIELDS}


def recomputed(case: Case) -> dict[str, Any]:
    """The summary formatting the case gives now (computed afresh, then stored)."""
    case.refresh_from_db()
    case.summary_current = False
    suite = case.suite
    refresh_summaries(WorkspaceFormatter(suite.workspace), suite, [case])
    return summary(case)


def current(case: Case) -> bool:
    case.refresh_from_db()
    return is_current(case, Suite.objects.get(pk=case.suite_id))


def queued_refreshes() -> int:
    return DBTaskResult.objects.filter(task_path__endswith="refresh_summaries_task").count()


def test_import_stores_the_summaries_that_formatting_gives(example_root: Path) -> None:
    workspace = import_workspace(example_root, "Examples").workspace

    cases = Case.objects.filter(suite__workspace=workspace)
    assert cases.count() == 21
    for case in cases:
        stored = summary(case)
        assert stored["summary_current"] is True
        assert recomputed(case) == stored


def test_a_file_the_import_cannot_decode_leaves_the_summaries_to_the_worker(
    tmp_path: Path,
) -> None:
    case = simple_case(
        input_messages=[{"role": "user", "content": [{"type": "file", "value": "bad.txt"}]}]
    )
    root = write_files(tmp_path, {"bad.txt": b"\xff\xfe", "e.yaml": eval_document(case)})

    workspace = import_workspace(root, "Undecodable").workspace

    stored = Case.objects.get(suite__workspace=workspace)
    assert not current(stored)
    assert queued_refreshes() == 1
    assert not summarize_cases(stored.suite, [stored])[0].current
    assert refresh_workspace(workspace.pk) == 1
    stored.refresh_from_db()
    summaries = summarize_cases(stored.suite, [stored])
    assert summaries[0].current
    assert summaries[0].formatted is not None
    assert "was not found" in summaries[0].formatted.warnings[0].message


@pytest.fixture
def team(db: None) -> Workspace:
    """A workspace whose suite has a case referring to notes.txt and one referring to nothing."""
    workspace = factories.workspace("Team")
    suite = factories.suite(workspace, "evals/review.yaml")
    for case_id, content in (
        ("with-file", [{"type": "text", "value": "Read"}, {"type": "file", "value": "notes.txt"}]),
        ("without-file", "Hello"),
    ):
        messages = [{"role": "user", "content": content}]
        paste_case(suite, dump_yaml(simple_case(case_id, input_messages=messages)))
    refresh_all(suite)
    return workspace


def refresh_all(suite: Suite) -> None:
    refresh_workspace(suite.workspace_id)


def named(workspace: Workspace, case_id: str) -> Case:
    return Case.objects.get(suite__workspace=workspace, case_id=case_id)


def test_a_new_file_marks_the_cases_that_may_refer_to_it_and_no_other(team: Workspace) -> None:
    create_file(team, "evals/notes.txt", "Some notes.")

    assert not current(named(team, "with-file"))
    assert current(named(team, "without-file"))
    assert recomputed(named(team, "with-file"))["format_warnings"] == []


def test_editing_renaming_and_deleting_a_file_mark_the_cases_of_both_names(
    team: Workspace,
) -> None:
    file = create_file(team, "notes.txt", "Notes.")
    refresh_all(team.suites.get())

    update_file(file, "other.txt", "Moved.")
    assert not current(named(team, "with-file"))
    refresh_all(team.suites.get())

    delete_file(team.files.get())
    assert current(named(team, "with-file"))  # nothing refers to other.txt
    create_file(team, "notes.txt", "Back.")
    refresh_all(team.suites.get())
    delete_file(team.files.get(path="notes.txt"))
    assert not current(named(team, "with-file"))


def test_a_file_name_a_reference_cannot_be_searched_for_marks_every_case(
    team: Workspace,
) -> None:
    create_file(team, 'say "hi".txt', "Quoted.")

    assert not current(named(team, "with-file"))
    assert not current(named(team, "without-file"))


def test_new_guideline_patterns_mark_every_case_of_the_workspace(team: Workspace) -> None:
    set_guideline_patterns(team, "**/*.txt")

    assert not current(named(team, "with-file"))
    assert not current(named(team, "without-file"))
    assert queued_refreshes() == 1


def test_the_same_guideline_patterns_saved_again_mark_nothing(team: Workspace) -> None:
    set_guideline_patterns(team, "**/*.txt")
    refresh_all(team.suites.get())
    queued = queued_refreshes()

    set_guideline_patterns(team, "**/*.txt")

    assert current(named(team, "with-file"))
    assert current(named(team, "without-file"))
    assert queued_refreshes() == queued


def test_marking_a_suite_out_of_date_writes_no_case_row(team: Workspace) -> None:
    before = {case.pk: case.updated_at for case in Case.objects.all()}

    change_profile(team.suites.get(), "agentv-2026")

    assert {case.pk: case.updated_at for case in Case.objects.all()} == before
    assert not current(named(team, "without-file"))


def test_saving_a_case_stores_its_new_summary_with_it(team: Workspace) -> None:
    case = named(team, "without-file")
    document = case.document
    document["input_messages"].append({"role": "assistant", "content": "Hi!"})

    save_case(case, document, case.version)

    assert current(case)
    listed = summarize_cases(case.suite, [named(team, "without-file")])
    assert listed[0].input_turns == 2
    assert listed[0].formatted is not None
    assert listed[0].formatted.reason == "assistant turn present"


def test_a_duplicate_is_summarised_with_its_own_id(team: Workspace) -> None:
    copy = duplicate_case(named(team, "with-file"))

    assert current(copy)
    listed = summarize_cases(copy.suite, [copy])
    assert listed[0].formatted is not None
    assert 'Case "with-file-copy"' in listed[0].formatted.warnings[0].message


def test_the_refresh_recomputes_in_batches_only_what_is_out_of_date(team: Workspace) -> None:
    suite = team.suites.get()
    for number in range(3):
        paste_case(suite, dump_yaml(simple_case(f"more-{number}")))
    set_guideline_patterns(team, "**/*.md")

    assert refresh_workspace(team.pk, batch_size=2) == 5
    assert all(current(case) for case in Case.objects.all())
    assert refresh_workspace(team.pk, batch_size=2) == 0


def test_importing_into_an_existing_workspace_marks_its_other_suites(
    team: Workspace, tmp_path: Path
) -> None:
    root = write_files(tmp_path, {"evals/other.yaml": eval_document(simple_case("other"))})

    import_workspace(root, team.name)

    assert not current(named(team, "without-file"))

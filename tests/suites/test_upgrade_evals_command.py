"""`upgrade_evals`: --dry-run changes nothing; an upgrade then an export writes files today's
AgentV loads (no key it refuses)."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from evals_app.eval_files.reading import read_eval_file
from evals_app.models import ActivityRecord, Workspace
from tests.agentv_rejections import rejected_keys
from tests.factories import database_snapshot, imported_workspace

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "upgrade"
OLDER_FILES = [
    "evals/cases.yaml",
    "evals/december.yaml",
    "evals/eval-cases.yaml",
    "evals/seeds.yaml",
    "evals/tests-early.yaml",
]


@pytest.fixture
def workspace() -> Workspace:
    return imported_workspace(FIXTURES, "Older files")


def upgrade_evals(*args: str) -> str:
    out = StringIO()
    call_command("upgrade_evals", "--workspace", "Older files", *args, stdout=out)
    return out.getvalue()


def test_dry_run_changes_nothing(workspace: Workspace) -> None:
    before = database_snapshot()
    records = ActivityRecord.objects.count()

    output = upgrade_evals("--dry-run")

    assert database_snapshot() == before
    assert ActivityRecord.objects.count() == records
    assert "Would upgrade 5 suites" in output
    assert "Dry run: nothing was changed." in output


def test_dry_run_says_per_suite_and_case_what_changes(workspace: Workspace) -> None:
    output = upgrade_evals("--dry-run", "--suite", "evals/seeds.yaml")

    assert output.splitlines()[:2] == ["evals/seeds.yaml", "  `target` → `providers`"]
    assert "  `evalcases` → `tests`" in output
    assert "  order-status: `input_messages` → `vars.input`" in output
    assert "    note: its guideline files now reach the model inline" in output
    assert "judge template judges/grade.md: changed in place" in output
    assert "judge template judges/shared.md: copied to judges/shared.v2026.md" in output


def test_notes_are_printed(workspace: Workspace) -> None:
    output = upgrade_evals("--dry-run", "--suite", "evals/eval-cases.yaml")

    assert "  note: `providers` names several systems under test" in output


def test_upgrade_then_export_writes_files_with_no_key_agentv_refuses(
    workspace: Workspace, tmp_path: Path
) -> None:
    upgrade_evals()
    call_command("export_evals", "--out", str(tmp_path), stdout=StringIO())

    folder = tmp_path / workspace.slug
    for path in OLDER_FILES:
        contents = read_eval_file((folder / path).read_bytes())
        assert contents.cases_key == "tests", path
        assert rejected_keys(contents.header, contents.cases) == [], path
    assert (folder / "judges" / "shared.v2026.md").exists()
    today = read_eval_file((folder / "evals" / "today.yaml").read_bytes())
    written = read_eval_file((FIXTURES / "evals" / "today.yaml").read_bytes())
    assert (today.header, today.cases) == (written.header, written.cases)


def test_the_export_of_older_files_has_keys_agentv_refuses(
    workspace: Workspace, tmp_path: Path
) -> None:
    # The check above can fail: without the upgrade, every older file is refused.
    call_command("export_evals", "--out", str(tmp_path), stdout=StringIO())

    for path in OLDER_FILES:
        contents = read_eval_file((tmp_path / workspace.slug / path).read_bytes())
        assert contents.cases_key != "tests" or rejected_keys(contents.header, contents.cases)


def test_a_second_run_finds_nothing_to_upgrade(workspace: Workspace) -> None:
    upgrade_evals()

    assert "in today's format already" in upgrade_evals()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--suite", "evals/none.yaml"], "no suite 'evals/none.yaml'"),
    ],
)
def test_an_unknown_suite_is_an_error(workspace: Workspace, args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        upgrade_evals(*args)


def test_an_unknown_workspace_is_an_error(db: None) -> None:
    with pytest.raises(CommandError, match="no workspace named 'Nowhere'"):
        call_command("upgrade_evals", "--workspace", "Nowhere")

"""`import_tests` brings other tools' tests into a workspace: per file the tests made and the
warnings; bad input refused with its file and line and nothing written (docs/imports.md)."""

from __future__ import annotations

import re
import shutil
from io import StringIO
from pathlib import Path
from unittest import mock

import pytest
from django.core.management import call_command, execute_from_command_line
from django.db import connections

from evals_app.models import Case, Suite, Workspace
from tests.factories import database_snapshot, suite, workspace, write_files

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "imports"


def run_import(*args: str) -> tuple[int, str, str]:
    """Run the command as a user would: its exit status, standard output and error."""
    out, err = StringIO(), StringIO()
    # A command closes every connection when it ends (BaseCommand.run_from_argv), which would
    # end the test's transaction on PostgreSQL or an SQLite file.
    with (
        mock.patch.object(connections, "close_all"),
        mock.patch("sys.stdout", out),
        mock.patch("sys.stderr", err),
    ):
        try:
            execute_from_command_line(["manage.py", "import_tests", *args])
        except SystemExit as exit_:
            return int(exit_.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def test_a_promptfoo_folder_becomes_a_suite_of_a_new_workspace() -> None:
    status, out, _ = run_import(
        str(FIXTURES / "promptfoo" / "csv-metadata"), "--workspace", "From promptfoo"
    )
    assert status == 0
    made = Workspace.objects.get(name="From promptfoo")
    imported = Suite.objects.get(workspace=made)
    assert imported.path == "evals/imported.eval.yaml"
    assert list(imported.cases.order_by("position").values_list("case_id", flat=True)) == [
        "tests-1",
        "tests-2",
        "tests-3",
    ]
    assert "promptfooconfig.yaml: promptfoo: 3 tests" in out
    assert "warning: promptfooconfig.yaml: providers: kept in default_test.metadata" in out


def test_the_suite_keeps_the_text_it_was_written_as_with_its_comments() -> None:
    run_import(str(FIXTURES / "inspect"), "--workspace", "Inspect", "--suite", "evals/i.yaml")
    imported = Suite.objects.get(path="evals/i.yaml")
    assert imported.source_text is not None
    assert "# Kept from the source with no AgentV equivalent" in imported.source_text
    assert imported.profile == "agentv-2026"
    assert imported.base_document is None  # made here: a sync never takes it for the repository's


def test_a_suite_keeping_nothing_aside_is_written_by_the_apps_writer() -> None:
    chat = FIXTURES / "chat-jsonl" / "marv.jsonl"
    run_import(str(chat), "--workspace", "Chats", "--suite", "evals/chats.yaml")
    imported = Suite.objects.get(path="evals/chats.yaml")
    assert imported.source_text is None  # no comment to keep: exported as any suite made here
    assert imported.document == {"prompts": ["{{ input }}"], "tests": []}


def test_a_session_is_tested_at_the_turn_asked_for() -> None:
    session = FIXTURES / "codex" / "codex_golden.jsonl"
    status, out, _ = run_import(str(session), "--workspace", "Codex", "--turn", "1")
    assert status == 0
    assert "codex_golden.jsonl: codex: 1 test (turn 1 of 2)" in out
    test = Case.objects.get(suite__workspace__name="Codex").document
    assert test["id"] == "golden-codex-001-turn-1"
    assert [message["role"] for message in test["vars"]["input"]] == ["user"]
    # Its answer at turn 1 is its last text before the next turn (after the tool's result).
    assert test["vars"]["expected_output"] == "I'll list the files for you."
    assert {"type": "trajectory:tool-used", "value": {"name": "shell", "min": 1}} in test["assert"]


def test_tests_are_added_at_the_end_of_a_suite_of_todays_format(tmp_path: Path) -> None:
    team = workspace("Team")
    today = suite(
        team,
        "evals/chat.yaml",
        document={"prompts": ["{{ input }}"], "tests": []},
        cases_key="tests",
        profile="agentv-2026",
    )
    chat = FIXTURES / "chat-jsonl" / "marv.jsonl"
    run_import(str(chat), "--workspace", "Team", "--suite", "evals/chat.yaml")
    status, out, _ = run_import(str(chat), "--workspace", "Team", "--suite", "evals/chat.yaml")
    assert status == 0
    ids = list(today.cases.order_by("position").values_list("case_id", flat=True))
    assert ids == ["marv-1", "marv-2", "marv-3", "marv-1-2", "marv-2-2", "marv-3-2"]
    assert (
        "warning: marv.jsonl: row 1 (line 1): id: 'marv-1' is taken: the test is 'marv-1-2'" in out
    )


BAD_INPUT = [
    pytest.param(
        {"data.jsonl": b'{"messages": [{"role": "user", "content": "caf\xe9"}]}\n'},
        [],
        "data.jsonl:1: not UTF-8 text",
        id="unreadable-file",
    ),
    pytest.param(
        {"data.jsonl": '{"messages": [{"role": "user", "content": "hi"}]}\n'},
        ["--from", "sharegpt"],
        "data.jsonl:1: this is not a sharegpt file (it reads as chat-jsonl)",
        id="wrong-from",
    ),
    pytest.param(
        {"tests.csv": 'question,__expected\n"What is 2+2?",4\n"broken",row,"here"\n'},
        [],
        "tests.csv:3: this row has 3 fields, the header 2",
        id="csv-with-a-broken-row",
    ),
    pytest.param(
        {
            "session.jsonl": (
                '{"type":"assistant","message":{"role":"assistant","content":"Hello"},'
                '"uuid":"a1","sessionId":"s1"}\n'
                '{"type":"summary","summary":"Nothing asked"}\n'
            )
        },
        [],
        "session.jsonl:2: the session has no user turn to test at",
        id="session-with-no-user-turn",
    ),
    pytest.param(
        {"data.jsonl": '{"messages": [{"role": "user", "content": "hi"}]}\n{"messages": [\n'},
        [],
        "data.jsonl:2: not valid JSON",
        id="a-line-that-is-not-json",
    ),
    pytest.param(
        {"data.jsonl": '{"messages": [{"role": "user", "content": "h\\u0000i"}]}\n'},
        [],
        "data.jsonl:1: vars.input[0].content: text cannot hold NUL characters",
        id="nul-in-a-text",
    ),
]


@pytest.mark.parametrize(("files", "options", "message"), BAD_INPUT)
def test_bad_input_is_refused_with_its_file_and_line_and_nothing_is_written(
    tmp_path: Path, files: dict[str, str | bytes], options: list[str], message: str
) -> None:
    workspace("Existing")
    before = database_snapshot()
    folder = write_files(tmp_path / "given", files)
    status, _, err = run_import(str(folder), "--workspace", "Existing", *options)
    assert status == 1
    assert f"error: {message}" in err
    assert "nothing was written" in err
    assert database_snapshot() == before


def test_a_new_workspace_is_not_made_when_the_import_is_refused(tmp_path: Path) -> None:
    folder = write_files(tmp_path / "given", {"tests.csv": "a,b\n1,2,3\n"})
    status, _, _ = run_import(str(folder), "--workspace", "Never made")
    assert status == 1
    assert not Workspace.objects.filter(name="Never made").exists()


def test_an_older_suite_does_not_take_todays_tests() -> None:
    team = workspace("Team")
    suite(team, "evals/old.yaml")  # the 2025 format of the seeds
    before = database_snapshot()
    chat = FIXTURES / "chat-jsonl" / "marv.jsonl"
    status, _, err = run_import(str(chat), "--workspace", "Team", "--suite", "evals/old.yaml")
    assert status == 1
    assert "evals/old.yaml is written in an older AgentV format" in err
    assert database_snapshot() == before


def test_a_folder_of_every_tool_is_imported_each_file_in_its_format(tmp_path: Path) -> None:
    everything = tmp_path / "everything"
    # promptfoo's config brings its own prompts: its tests go to a suite of their own.
    shutil.copytree(FIXTURES, everything, ignore=shutil.ignore_patterns("promptfoo"))
    out = StringIO()
    with mock.patch.object(connections, "close_all"):
        call_command("import_tests", str(everything), "--workspace", "All", stdout=out)
    made = re.findall(r"^\S+: ([a-z-]+): \d+ tests?", out.getvalue(), re.MULTILINE)
    formats = set(made)
    assert formats == {
        "openai-evals",
        "openai-evals-api",
        "chat-jsonl",
        "sharegpt",
        "langsmith",
        "langfuse",
        "braintrust",
        "inspect",
        "deepeval",
        "claude-code",
        "codex",
    }
    assert "skipped: README.md: not a data file" in out.getvalue()


def test_a_promptfoo_config_and_other_tools_files_do_not_share_a_suite(tmp_path: Path) -> None:
    mixed = tmp_path / "mixed"
    shutil.copytree(FIXTURES / "promptfoo" / "csv-metadata", mixed)
    shutil.copy(FIXTURES / "chat-jsonl" / "marv.jsonl", mixed)
    status, _, err = run_import(str(mixed), "--workspace", "Mixed")
    assert status == 1
    assert (
        "error: promptfooconfig.yaml: its prompts render its own variables, while the tests of "
        "chat-jsonl send their input as it is: import them into separate suites"
    ) in err
    assert not Workspace.objects.filter(name="Mixed").exists()


def test_two_folders_with_files_of_one_name_are_both_imported(tmp_path: Path) -> None:
    marv = (FIXTURES / "chat-jsonl" / "marv.jsonl").read_text()
    first = write_files(tmp_path / "first", {"rows.jsonl": marv})
    second = write_files(tmp_path / "second", {"rows.jsonl": marv})
    status, out, _ = run_import(str(first), str(second), "--workspace", "Two")
    assert status == 0
    assert "first/rows.jsonl: chat-jsonl: 3 tests" in out
    assert "second/rows.jsonl: chat-jsonl: 3 tests" in out
    assert Case.objects.filter(suite__workspace__name="Two").count() == 6


def test_an_empty_file_is_refused_as_holding_no_test(tmp_path: Path) -> None:
    workspace("Existing")
    folder = write_files(tmp_path / "given", {"rows.jsonl": ""})
    status, _, err = run_import(str(folder), "--workspace", "Existing")
    assert status == 1
    assert "no tests were found" in err

"""`export_evals`: files written, formatted.jsonl per case and mode, --check, --toon, atomicity."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import toon_format
from django.core.management import call_command, execute_from_command_line
from django.db import connections

from evals_app.eval_files.reading import read_eval_file
from evals_app.formatting.profile_2025.formatter import format_case
from evals_app.formatting.workspace_files import DirectoryFiles
from evals_app.models import Suite
from evals_app.services.exports import batches
from evals_app.services.exports.files import held_folder
from evals_app.services.imports.folders import import_workspace
from tests.factories import write_files

pytestmark = pytest.mark.django_db

FIELDS = [
    "file",
    "cases_file",
    "id",
    "mode",
    "question",
    "guidelines",
    "chat_prompt",
    "evaluator_prompt",
    "role_markers",
    "reason",
    "warnings",
    "profile",
    "system_message",
]


@pytest.fixture
def example(example_root: Path) -> None:
    import_workspace(example_root, "Example workspace")


def export(tmp_path: Path, *args: str) -> list[dict[str, Any]]:
    call_command("export_evals", "--out", str(tmp_path), *args)
    lines = (tmp_path / "example-workspace" / "formatted.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def test_every_case_is_formatted_in_both_modes_by_default(example: None, tmp_path: Path) -> None:
    records = export(tmp_path)

    # 17 cases of the older suites, and the 5 tests today's suite runs as (one per language).
    assert len(records) == 2 * (17 + 5)
    # A conversation test's rows add `turns`.
    assert all(list(record)[: len(FIELDS)] == FIELDS for record in records)
    assert [r["mode"] for r in records[:2]] == ["lm", "agent"]


def test_formatted_lines_match_the_engine_run_on_the_files(
    example: None, example_root: Path, tmp_path: Path
) -> None:
    records = export(tmp_path, "--mode", "lm")
    by_key = {(r["file"], r["id"]): r for r in records}

    for suite in ["evals/coding/debug-session.yaml", "evals/support/tool-use.yaml"]:
        contents = read_eval_file((example_root / suite).read_bytes())
        for case in contents.case_inputs():
            expected = format_case(
                case,
                eval_path=suite,
                files=DirectoryFiles(example_root),
                guideline_patterns=["**/*.instructions.md", ".github/instructions/**/*.md"],
            )
            record = by_key[(suite, case.id)]
            assert record["question"] == expected.question
            assert record["guidelines"] == expected.guidelines
            assert record["chat_prompt"] == expected.chat_prompt
            assert record["evaluator_prompt"] == expected.evaluator_prompt()


def test_call_command_takes_the_folders_as_strings(example: None, tmp_path: Path) -> None:
    """argparse's `type=Path` is not applied to call_command's keyword arguments."""
    reviews = str(tmp_path / "reviews.jsonl")
    call_command("export_evals", out=str(tmp_path / "out"), reviews=reviews, mode="lm")

    assert (tmp_path / "out" / "example-workspace" / "formatted.jsonl").exists()
    assert (tmp_path / "reviews.jsonl").exists()


def test_one_mode_writes_one_line_per_case(example: None, tmp_path: Path) -> None:
    records = export(tmp_path, "--mode", "agent")

    assert len(records) == 17 + 5
    assert {r["mode"] for r in records} == {"agent"}


def test_multi_turn_case_uses_role_markers_and_says_why(example: None, tmp_path: Path) -> None:
    records = export(tmp_path, "--mode", "lm")
    debug = next(r for r in records if r["id"] == "debug-checkout-typeerror")

    assert debug["role_markers"] is True
    assert debug["reason"] == "assistant turn present"
    assert debug["question"].startswith("@[System]:\n")
    assert '<file path="../../src/cart.js">' in debug["question"]
    assert debug["chat_prompt"][0]["role"] == "system"


def test_agent_mode_references_files_instead_of_embedding_them(
    example: None, tmp_path: Path
) -> None:
    records = export(tmp_path, "--mode", "agent")
    debug = next(r for r in records if r["id"] == "debug-checkout-typeerror")

    assert '<file: path="../../src/cart.js">' in debug["question"]
    assert "function subtotal" not in debug["question"]


def test_evaluator_prompt_holds_the_question_and_a_candidate_placeholder(
    example: None, tmp_path: Path
) -> None:
    for record in export(tmp_path):
        prompt = record["evaluator_prompt"]
        if prompt is None:  # today's format: a test without a judge is not graded
            assert record["profile"] == "agentv-2026"
            continue
        assert "{{candidate_answer}}" in prompt
        if record["profile"] == "agentv-2025":  # today's judge templates may name `{{input}}`
            assert record["question"] in prompt


def test_toon_adds_the_turns_in_toon(example: None, tmp_path: Path) -> None:
    records = export(tmp_path, "--toon", "--mode", "lm")

    debug = next(r for r in records if r["id"] == "debug-checkout-typeerror")
    decoded = toon_format.decode(debug["question_toon"])
    assert "Can you share" in json.dumps(decoded)


def test_check_exits_1_when_a_case_has_a_warning(
    example: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Kept open: the command closes connections when it ends, which would end the test's
    # transaction on PostgreSQL or an SQLite file.
    with mock.patch.object(connections, "close_all"), pytest.raises(SystemExit) as exit_:
        execute_from_command_line(["manage.py", "export_evals", "--out", str(tmp_path), "--check"])

    assert exit_.value.code == 1
    # The 2025 review suite's two file warnings, and two tests of today's example that AgentV
    # would not grade as written (small-talk has nothing to grade; refund-window's
    # file:// judge has no value), each in both modes.
    assert "--check: 8 formatting warnings" in capsys.readouterr().err


def test_check_passes_when_no_case_has_a_warning(tmp_path: Path) -> None:
    write_files(
        tmp_path / "clean",
        {
            "e.yaml": "$schema: agentv-eval-v2\nevalcases:\n  - id: a\n"
            "    outcome: Greets the user back in one friendly sentence\n"
            "    input_messages:\n      - {role: user, content: hi}\n"
        },
    )
    import_workspace(tmp_path / "clean")

    call_command("export_evals", "--out", str(tmp_path / "out"), "--check")


def test_unknown_workspace_name_is_an_error(
    example: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        execute_from_command_line(
            ["manage.py", "export_evals", "--out", str(tmp_path), "--workspace", "nope"]
        )

    assert "no workspace named 'nope'" in capsys.readouterr().err


@pytest.mark.parametrize("jobs", ["0", "-1", "two"])
def test_jobs_must_be_a_whole_number_of_at_least_one(
    example: None, tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    with pytest.raises(SystemExit):
        execute_from_command_line(
            ["manage.py", "export_evals", "--out", str(tmp_path), "--jobs", jobs]
        )

    assert (
        f"argument --jobs: {jobs!r} is not a whole number of at least 1" in capsys.readouterr().err
    )
    assert not (tmp_path / "example-workspace").exists()


def test_jobs_change_how_fast_not_what_is_written(example: None, tmp_path: Path) -> None:
    call_command("export_evals", "--out", str(tmp_path / "one"), "--jobs", "1")
    call_command("export_evals", "--out", str(tmp_path / "four"), "--jobs", "4")

    one, four = tmp_path / "one", tmp_path / "four"
    files = sorted(path.relative_to(one) for path in one.rglob("*") if path.is_file())
    assert files == sorted(path.relative_to(four) for path in four.rglob("*") if path.is_file())
    assert all((one / path).read_bytes() == (four / path).read_bytes() for path in files)


def test_export_writes_suites_files_and_config(
    example: None, example_root: Path, tmp_path: Path
) -> None:
    export(tmp_path)
    folder = tmp_path / "example-workspace"

    assert (folder / "evals/coding/review.yaml").is_file()
    assert (folder / "src/cart.js").read_bytes() == (example_root / "src/cart.js").read_bytes()
    config = (folder / ".agentv/config.yaml").read_text()
    assert config.startswith("$schema: agentv-config-v2\n")
    assert ".github/instructions/**/*.md" in config


def test_interrupted_export_keeps_previous_files_and_leaves_no_temporary_file(
    example: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    export(tmp_path)
    folder = tmp_path / "example-workspace"
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}

    calls = 0

    def failing_is_untouched(suite: Suite, case_jsons: Iterable[str]) -> bool:
        nonlocal calls
        calls += 1
        if calls == 5:
            raise KeyboardInterrupt
        return original(suite, case_jsons)

    original = batches.is_untouched
    monkeypatch.setattr(batches, "is_untouched", failing_is_untouched)
    with pytest.raises(KeyboardInterrupt):
        call_command("export_evals", "--out", str(tmp_path))

    after = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert after == before
    assert not list(folder.rglob("*.tmp"))


def test_exported_files_are_readable_by_others(example: None, tmp_path: Path) -> None:
    export(tmp_path)

    mode = (tmp_path / "example-workspace" / "formatted.jsonl").stat().st_mode & 0o777
    assert mode & 0o044 == 0o044


def test_a_file_that_cannot_replace_its_target_fails_the_export_and_leaves_no_temporary_file(
    example: None, tmp_path: Path
) -> None:
    folder = tmp_path / "example-workspace"
    (folder / "evals/coding/review.yaml/in-the-way").mkdir(parents=True)

    with pytest.raises(OSError):
        call_command("export_evals", "--out", str(tmp_path))

    assert (folder / "evals/coding/review.yaml").is_dir()
    assert not list(folder.rglob("*.tmp"))


def test_an_export_into_a_folder_another_export_is_writing_waits_for_it(
    example_root: Path, tmp_path: Path, transactional_db: None
) -> None:
    import_workspace(example_root, "Example workspace")
    folder = tmp_path / "example-workspace"
    finished = threading.Event()

    def second_export() -> None:
        try:
            call_command("export_evals", "--out", str(tmp_path))
            finished.set()
        finally:
            connections.close_all()

    with held_folder(folder):  # as the first export holds it while it writes
        theirs = folder / ".formatted.jsonl.0a1b2c3d.tmp"
        theirs.write_text("{}\n")
        thread = threading.Thread(target=second_export)
        thread.start()
        # Several times what the export takes alone: it waits rather than taking the first
        # export's temporary file for a killed export's and removing it.
        assert not finished.wait(3)
        assert theirs.read_text() == "{}\n"
        theirs.unlink()  # the first export puts it in place
    thread.join(60)

    assert finished.is_set()
    assert (folder / "formatted.jsonl").is_file()

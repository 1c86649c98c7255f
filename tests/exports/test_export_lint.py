"""`export_evals --check` lints every case, and `formatted.jsonl` holds each case's lint
findings and token counts (docs/user-guide.md, "Lint rules", "Token counts")."""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

import pytest
from django.core.management import call_command, execute_from_command_line
from django.db import connections

from evals_app.services.imports.folders import import_workspace
from tests.factories import write_files

pytestmark = pytest.mark.django_db

GRADED = "    outcome: Names the thirty-day refund window\n"


def suite_file(*cases: str) -> str:
    return "$schema: agentv-eval-v2\nevalcases:\n" + "".join(cases)


def a_case(case_id: str, question: str, grading: str = GRADED) -> str:
    turn = f"      - {{role: user, content: '{question}'}}\n"
    return f"  - id: {case_id}\n{grading}    input_messages:\n{turn}"


def run_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    # Kept open: the command closes connections when it ends (see test_export_evals_command).
    with mock.patch.object(connections, "close_all"), pytest.raises(SystemExit) as exit_:
        execute_from_command_line(
            ["manage.py", "export_evals", "--out", str(tmp_path / "out"), "--check"]
        )
    output = capsys.readouterr()
    return int(exit_.value.code or 0), output.out + output.err


def test_check_reports_each_finding_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_files(
        tmp_path / "ws",
        {"e.yaml": suite_file(a_case("ungraded", "What is our refund policy?", ""))},
    )
    import_workspace(tmp_path / "ws", "ws")

    code, output = run_check(tmp_path, capsys)

    assert code == 1
    assert "lint: e.yaml: ungraded: warning no-grader: The case has no outcome" in output
    assert "1 lint findings (errors and warnings)" in output


def test_check_compares_the_questions_of_a_suite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    question = "How long do I have to return a pair of shoes I bought online last week"
    write_files(
        tmp_path / "ws",
        {
            "e.yaml": suite_file(
                a_case("shoes", question), a_case("boots", question.replace("shoes", "boots"))
            )
        },
    )
    import_workspace(tmp_path / "ws", "ws")

    code, output = run_check(tmp_path, capsys)

    assert code == 1
    assert (
        "lint: e.yaml: boots: warning near-duplicate: The question is nearly that of “shoes”"
        in output
    )


def test_token_counts_are_added_only_when_asked_for(tmp_path: Path) -> None:
    write_files(tmp_path / "ws", {"e.yaml": suite_file(a_case("a", "Hello there"))})
    import_workspace(tmp_path / "ws", "ws")

    call_command("export_evals", "--out", str(tmp_path / "out"), "--mode", "lm")

    row = json.loads((tmp_path / "out" / "ws" / "formatted.jsonl").read_text().splitlines()[0])
    assert "tokens" not in row
    assert row["lint"] == []


def test_formatted_rows_hold_the_lint_findings_and_token_counts(tmp_path: Path) -> None:
    write_files(tmp_path / "ws", {"e.yaml": suite_file(a_case("ungraded", "Hello there", ""))})
    import_workspace(tmp_path / "ws", "ws")

    call_command("export_evals", "--out", str(tmp_path / "out"), "--mode", "lm", "--tokens")

    row = json.loads((tmp_path / "out" / "ws" / "formatted.jsonl").read_text().splitlines()[0])
    assert [finding["rule"] for finding in row["lint"]] == ["no-grader"]
    assert row["tokens"] == {
        "encoding": "o200k_base",
        "question": 2,
        "guidelines": 0,
        "system_message": 0,
        "evaluator_prompt": row["tokens"]["evaluator_prompt"],
    }
    assert row["tokens"]["evaluator_prompt"] > 10

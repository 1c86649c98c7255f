"""`export_evals` rows of a suite of the AgentV 2026 profile: one per expanded test and mode,
with `profile`, `system_message`, `evaluator_prompt` (null when not graded), `guidelines: ""`
and `turns` (docs/formatting.md, "The AgentV 2026 profile")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from evals_app.eval_files.reading import read_eval_file
from evals_app.formatting.profile_2026 import format_tests_2026
from evals_app.formatting.workspace_files import DirectoryFiles
from evals_app.models import Workspace
from evals_app.services.imports.folders import import_workspace
from tests.exports.test_export_evals_command import FIELDS

pytestmark = pytest.mark.django_db

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "today"
SUITE = "evals/shop/shop.eval.yaml"


@pytest.fixture
def today() -> Workspace:
    return import_workspace(FIXTURE, "Today").workspace


def export(tmp_path: Path, *args: str) -> list[dict[str, Any]]:
    call_command("export_evals", "--out", str(tmp_path), *args)
    lines = (tmp_path / "today" / "formatted.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def test_the_suite_is_imported_with_the_2026_profile_and_its_files(today: Workspace) -> None:
    assert today.suites.get().profile == "agentv-2026"
    assert set(today.files.values_list("path", flat=True)) == {"docs/menu.md", "judges/answer.md"}
    assert today.checkout_folder == FIXTURE.as_posix()


def test_one_row_per_expanded_test_and_mode(today: Workspace, tmp_path: Path) -> None:
    records = export(tmp_path)
    assert [(r["id"], r["mode"]) for r in records] == [
        ("greet-en", "lm"),
        ("greet-en", "agent"),
        ("greet-fr", "lm"),
        ("greet-fr", "agent"),
        ("judged-by-file", "lm"),
        ("judged-by-file", "agent"),
        ("not-graded", "lm"),
        ("not-graded", "agent"),
        ("chat", "lm"),
        ("chat", "agent"),
    ]
    assert all(list(r)[: len(FIELDS)] == FIELDS for r in records)
    assert all(r["profile"] == "agentv-2026" and r["guidelines"] == "" for r in records)


def test_rows_byte_for_byte(today: Workspace, tmp_path: Path) -> None:
    rows = {(r["id"], r["mode"]): r for r in export(tmp_path)}
    menu = '<file path="../../docs/menu.md">\nGreen tea, black tea.\n</file>'
    absolute = f'<file: path="{FIXTURE.as_posix()}/docs/menu.md">'

    greet = rows["greet-fr", "lm"]
    assert greet["question"] == (
        f"@[System]:\nYou work at Tea & Co.\n\n@[User]:\nGreet the customer in fr.\n{menu}"
    )
    assert greet["system_message"] == "You work at Tea & Co."
    assert greet["chat_prompt"] == [
        {"role": "system", "content": "You work at Tea & Co."},
        {"role": "user", "content": f"Greet the customer in fr.\n{menu}"},
    ]
    assert greet["reason"] == "2 turns with visible content"
    assert "- [rubric-1] (REQUIRED): Greets politely" in greet["evaluator_prompt"]
    assert rows["greet-fr", "agent"]["question"].endswith(f"Greet the customer in fr.\n{absolute}")

    judged = rows["judged-by-file", "lm"]
    assert judged["question"] == "What is 49?"
    assert judged["system_message"] is None
    assert judged["chat_prompt"] is None
    assert judged["evaluator_prompt"] == (
        "Question: What is 49?\nCriteria: Answers 49\nAnswer: {{candidate_answer}}\n"
    )

    assert rows["not-graded", "lm"]["evaluator_prompt"] is None
    assert "turns" not in rows["not-graded", "lm"]

    chat = rows["chat", "lm"]
    assert chat["turns"] == [
        {
            "chat_prompt": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": "Do you sell tea?"},
            ]
        },
        {
            "chat_prompt": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": "Do you sell tea?"},
                {"role": "assistant", "content": "Yes."},
                {"role": "user", "content": "Which kinds?"},
            ]
        },
    ]


def test_rows_match_the_engine_run_on_the_files(today: Workspace, tmp_path: Path) -> None:
    contents = read_eval_file((FIXTURE / SUITE).read_text())
    expected = []
    for document in contents.cases:
        by_mode = [
            format_tests_2026(
                document,
                contents.header,
                eval_path=SUITE,
                files=DirectoryFiles(FIXTURE),
                mode=mode,
                checkout_folder=FIXTURE.as_posix(),
            )
            for mode in ("lm", "agent")
        ]
        for tests in zip(*by_mode, strict=True):
            expected += [
                (test.id, test.mode, test.question, test.evaluator_prompt) for test in tests
            ]
    records = export(tmp_path)
    assert [(r["id"], r["mode"], r["question"], r["evaluator_prompt"]) for r in records] == expected


def test_toon_rows_encode_the_visible_messages(today: Workspace, tmp_path: Path) -> None:
    records = export(tmp_path, "--toon", "--mode", "lm")
    assert records[0]["question_toon"].startswith("[2]:")

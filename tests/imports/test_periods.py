"""Eval files of every AgentV period import, export losslessly and reach a fixed point.

The workspace `tests/fixtures/periods/` holds a file in each period's spelling (docs/formats.md,
"Periods and their spellings") and the mixed shapes real files have: content as a mapping,
blocks of other types, messages of tool calls only, files of cases referred to by `tests:`,
nested and invalid `.agentv/config.yaml` files, and YAML files that are not eval files.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from evals_app.eval_files.yaml_loader import load_yaml
from evals_app.models import Suite, Workspace
from evals_app.services.exports.exporting import export_workspace
from evals_app.services.imports.folders import ImportFailed, ImportSummary, import_workspace
from evals_app.services.profiles.workspace_formatter import WorkspaceFormatter
from tests.factories import key_orders

pytestmark = pytest.mark.django_db

PERIODS = Path(__file__).resolve().parent.parent / "fixtures" / "periods"

# Every suite of the fixture workspace: its format, list of cases, profile, the file that
# refers to it (for files of cases), and its cases in order.
SUITES: dict[str, tuple[str, str, str, str, list[str]]] = {
    "evals/2025-11/seeds.yaml": (
        "yaml",
        "evalcases",
        "agentv-2025",
        "",
        ["seed-with-guideline", "seed-plain"],
    ),
    "evals/2025-12/evalcases.yaml": (
        "yaml",
        "evalcases",
        "agentv-2025",
        "",
        ["refund-window", "greeting"],
    ),
    "evals/2026-01/eval_cases.yaml": (
        "yaml",
        "eval_cases",
        "agentv-2025",
        "",
        ["capital", "tool-answer"],
    ),
    "evals/2026-02/cases.yaml": ("yaml", "cases", "agentv-2025", "", ["essay"]),
    "evals/2026-02/tests.yaml": (
        "yaml",
        "tests",
        "agentv-2026",
        "",
        ["string-input", "messages-input"],
    ),
    "evals/2026-07/today.yaml": (
        "yaml",
        "tests",
        "agentv-2026",
        "",
        ["vars-messages", "vars-string", "conversation"],
    ),
    "evals/mixed/shapes.yaml": (
        "yaml",
        "tests",
        "agentv-2026",
        "",
        [
            "content-mapping",
            "other-blocks",
            "tool-calls-only",
            "number-content",
            "typed-keys",
        ],
    ),
    "evals/references/suite.yaml": ("yaml", "tests", "agentv-2026", "", []),
    "evals/references/listed.yaml": ("yaml", "tests", "agentv-2026", "", ["inline"]),
    "evals/references/cases/more.jsonl": (
        "jsonl",
        "",
        "agentv-2026",
        "evals/references/suite.yaml",
        ["jsonl-1", "jsonl-2"],
    ),
    "evals/references/cases/extra.yaml": (
        "yaml-list",
        "",
        "agentv-2026",
        "evals/references/listed.yaml",
        ["extra-1", "extra-2"],
    ),
    "evals/references/cases/table.csv": (
        "csv",
        "",
        "agentv-2026",
        "evals/references/listed.yaml",
        ["csv-1", "csv-2"],
    ),
    "evals/root-guidelines.yaml": ("yaml", "evalcases", "agentv-2025", "", ["root-tone"]),
    "evals/team-b/suite-b.yaml": ("yaml", "evalcases", "agentv-2025", "", ["team-b-tone"]),
    "evals/team-c/suite-c.yaml": ("yaml", "evalcases", "agentv-2025", "", ["team-c-tone"]),
}
# (suite path, case id) of every case, for tests that go through each one.
PERIOD_CASES = [(path, case_id) for path, suite in SUITES.items() for case_id in suite[4]]

# What the import warns about, each naming the file, the case and the field or turn.
# `tests` files are formatted by the AgentV 2026 profile, the others by the 2025 one: each
# warns in its own words (docs/formatting.md).
EXPECTED_WARNINGS = [
    "evals/team-c/.agentv/config.yaml: invalid config, skipped: $schema must be 'agentv-config-v2'",
    'evals/2026-02/tests.yaml: Test "messages-input": the judge prompt is not text or a file path',
    'evals/2026-07/today.yaml: Test "conversation": no input message has visible content',
    'evals/mixed/shapes.yaml: Test "other-blocks", input message 1: block type "tool_call" renders '
    "nothing in the prompt",
    'evals/mixed/shapes.yaml: Test "number-content": no input message has visible content',
    # `listed.yaml` has no `prompts`, so a test whose input is only `vars.input` has none.
    'evals/references/cases/extra.yaml: Test "extra-2": there is no input',
    'evals/references/cases/table.csv: Test "csv-1": there is no input',
]
SKIPPED = [
    (".github/workflows/x.yml", "not an eval file"),
    ("governance.yaml", "duplicate key 'owners' in one mapping"),
]
# Files that are not suites but are stored and exported as they are.
STORED_FILES = [
    ".agentv/config.yaml",
    "evals/team-b/.agentv/config.yaml",
    "evals/team-c/.agentv/config.yaml",
    "evals/references/cases/table.csv",
]


def exactly(data: Any) -> str:
    """`data` with every key's and value's type and every mapping's order showing: `==` takes
    `{1: x}` for `{True: x}` and ignores order, a lossless round trip may do neither."""
    return repr(data)


@pytest.fixture
def imported() -> ImportSummary:
    return import_workspace(PERIODS, "periods")


@pytest.fixture
def exported(imported: ImportSummary, tmp_path: Path) -> Path:
    return export_workspace(imported.workspace, tmp_path / "one").folder


def test_every_period_imports_as_suites_of_its_spelling(imported: ImportSummary) -> None:
    suites = {
        suite.path: (
            suite.file_format,
            suite.cases_key,
            suite.profile,
            suite.referenced_by,
            [case.case_id for case in suite.cases.all()],
        )
        for suite in imported.workspace.suites.all()
    }

    assert suites == SUITES
    assert imported.cases == len(PERIOD_CASES)


@pytest.mark.parametrize("warning", EXPECTED_WARNINGS)
def test_import_warns_naming_file_case_and_field(imported: ImportSummary, warning: str) -> None:
    assert any(found.startswith(warning) for found in imported.warnings), imported.warnings


def test_every_warning_names_its_file(imported: ImportSummary) -> None:
    known_files = set(SUITES) | set(STORED_FILES)

    for warning in imported.warnings:
        assert warning.split(":", 1)[0] in known_files, warning


def test_yaml_files_that_are_not_eval_files_are_skipped_with_their_reason(
    imported: ImportSummary,
) -> None:
    assert sorted(imported.skipped) == SKIPPED


@pytest.mark.parametrize("path", [path for path in SUITES if path.endswith((".yaml", ".yml"))])
def test_export_writes_each_yaml_file_to_exactly_its_original_data(
    exported: Path, path: str
) -> None:
    original = load_yaml((PERIODS / path).read_bytes()).data
    written = load_yaml((exported / path).read_bytes()).data

    assert written == original
    assert key_orders(written) == key_orders(original)
    assert exactly(written) == exactly(original)


def test_rubric_score_ranges_keep_their_integer_and_boolean_keys(exported: Path) -> None:
    written = load_yaml((exported / "evals/2026-02/cases.yaml").read_bytes()).data

    structure, honesty = written["cases"][0]["rubrics"]
    assert list(structure["score_ranges"]) == [0, 3, 5]
    assert list(honesty["score_ranges"]) == [True, False]


def test_a_jsonl_file_of_cases_is_written_back_as_jsonl(exported: Path) -> None:
    path = "evals/references/cases/more.jsonl"
    original = [json.loads(line) for line in (PERIODS / path).read_text().splitlines()]
    written_lines = (exported / path).read_text().splitlines()

    assert [json.loads(line) for line in written_lines] == original
    assert all(line.startswith("{") for line in written_lines)


def test_a_yaml_list_of_cases_is_written_back_as_a_yaml_list(exported: Path) -> None:
    path = "evals/references/cases/extra.yaml"
    written = load_yaml((exported / path).read_bytes()).data

    assert isinstance(written, list)
    assert written == load_yaml((PERIODS / path).read_bytes()).data


@pytest.mark.parametrize("path", STORED_FILES)
def test_configs_and_the_csv_file_are_exported_untouched(exported: Path, path: str) -> None:
    assert (exported / path).read_bytes() == (PERIODS / path).read_bytes()


def test_references_to_files_of_cases_stay_in_place(exported: Path) -> None:
    suite = load_yaml((exported / "evals/references/suite.yaml").read_bytes()).data
    listed = load_yaml((exported / "evals/references/listed.yaml").read_bytes()).data

    assert suite["tests"] == "file://cases/more.jsonl"
    assert listed["tests"][1:] == ["file://cases/extra.yaml", "file://cases/table.csv"]


def test_a_second_import_and_export_gives_identical_bytes(exported: Path, tmp_path: Path) -> None:
    workspace = import_workspace(exported, "second").workspace
    again = export_workspace(workspace, tmp_path / "two").folder

    first = {p.relative_to(exported): p.read_bytes() for p in exported.rglob("*") if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()}
    assert first.keys() == second.keys()
    for relative, content in first.items():
        assert second[relative] == content, relative


def formatted(suite_path: str) -> tuple[str, str]:
    """The guidelines and the question of the only case of a suite (lm mode)."""
    suite = Suite.objects.get(path=suite_path)
    result = WorkspaceFormatter(suite.workspace).format(suite.cases.get(), suite, "lm")
    return result.guidelines, result.question


def test_the_nearest_config_decides_which_files_are_guidelines(imported: ImportSummary) -> None:
    root_guidelines, root_question = formatted("evals/root-guidelines.yaml")
    team_guidelines, team_question = formatted("evals/team-b/suite-b.yaml")

    # The root config makes *.instructions.md files guidelines, team-b's *.guide.md files.
    assert "Answer in short sentences." in root_guidelines
    assert "Be friendly" not in root_guidelines
    assert "<Attached: guides/style.instructions.md>" in root_question
    assert "Be friendly" in team_guidelines
    assert "Answer in short sentences." not in team_guidelines
    assert "<Attached: guides/tone.guide.md>" in team_question


def test_an_invalid_config_is_skipped_and_the_next_one_up_applies(
    imported: ImportSummary,
) -> None:
    assert formatted("evals/team-c/suite-c.yaml") == formatted("evals/root-guidelines.yaml")
    assert Workspace.objects.get().files.filter(path="evals/team-c/.agentv/config.yaml").exists()


def test_a_broken_file_named_like_an_eval_file_refuses_the_import(tmp_path: Path) -> None:
    root = tmp_path / "periods"
    shutil.copytree(PERIODS, root)
    (root / "evals/broken.eval.yaml").write_text("tests:\n  - id: [unclosed\n")

    with pytest.raises(ImportFailed) as refused:
        import_workspace(root, "periods")

    (error,) = refused.value.errors
    assert str(error).startswith("evals/broken.eval.yaml:")
    assert "not valid YAML" in error.message
    assert not Workspace.objects.exists()


def test_a_conversation_of_turns_is_not_warned_about_as_missing(imported: ImportSummary) -> None:
    # `mode: conversation` tests hold their conversation in `turns[].input` (2026-07).
    assert not [
        warning
        for warning in imported.warnings
        if "'conversation'" in warning and "has no conversation" in warning
    ]

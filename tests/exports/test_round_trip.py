"""Import then export keeps every eval file's data: keys, order, string-vs-list content."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings

from evals_app.eval_files.reading import read_eval_file
from evals_app.eval_files.yaml_loader import load_yaml
from evals_app.formatting.profile_2025.formatter import format_case
from evals_app.formatting.workspace_files import DirectoryFiles
from evals_app.models import Suite, Workspace
from evals_app.services.exports.exporting import export_workspace
from evals_app.services.imports.folders import import_workspace
from evals_app.services.profiles.workspace_formatter import WorkspaceFormatter
from tests.factories import key_orders, property_workspace, write_files
from tests.strategies import eval_files, period_eval_files

pytestmark = pytest.mark.django_db

EXAMPLE_SUITES = [
    "evals/basics/single-turn.yaml",
    "evals/coding/debug-session.yaml",
    "evals/coding/review.yaml",
    "evals/support/escalation.yml",
    "evals/support/tool-use.yaml",
]


def exported_copy(root: Path, out: Path, name: str) -> Path:
    """Import `root` as workspace `name`, export it under `out`, return the exported folder."""
    workspace = import_workspace(root, name).workspace
    return export_workspace(workspace, out).folder


@pytest.mark.parametrize("suite_path", EXAMPLE_SUITES)
def test_example_suite_exports_to_the_same_data_in_the_same_key_order(
    example_root: Path, tmp_path: Path, suite_path: str
) -> None:
    folder = exported_copy(example_root, tmp_path, "examples")

    original = load_yaml((example_root / suite_path).read_bytes()).data
    exported = load_yaml((folder / suite_path).read_bytes()).data

    assert exported == original
    assert key_orders(exported) == key_orders(original)


def test_second_round_trip_gives_identical_bytes(example_root: Path, tmp_path: Path) -> None:
    first = exported_copy(example_root, tmp_path / "one", "first")
    second = exported_copy(first, tmp_path / "two", "second")

    first_files = {p.relative_to(first): p.read_bytes() for p in first.rglob("*") if p.is_file()}
    second_files = {p.relative_to(second): p.read_bytes() for p in second.rglob("*") if p.is_file()}
    assert first_files.keys() == second_files.keys()
    for relative, content in first_files.items():
        if relative.name != "formatted.jsonl":  # it names the workspace folder's suites only
            assert second_files[relative] == content, relative
    assert second_files[Path("formatted.jsonl")] == first_files[Path("formatted.jsonl")]


def test_multi_line_strings_are_written_as_block_scalars(
    example_root: Path, tmp_path: Path
) -> None:
    folder = exported_copy(example_root, tmp_path, "examples")

    text = (folder / "evals/coding/debug-session.yaml").read_text()

    assert "value: |" in text


def test_importing_again_follows_the_files_for_cases_the_app_left_alone(
    tmp_path: Path,
) -> None:
    def case(case_id: str) -> dict[str, Any]:
        return {"id": case_id, "outcome": "o", "input_messages": [{"role": "user", "content": "x"}]}

    def document(*ids: str) -> dict[str, Any]:
        return {"$schema": "agentv-eval-v2", "evalcases": [case(i) for i in ids]}

    write_files(tmp_path / "v1", {"a.yaml": document("one"), "b.yaml": document("two")})
    write_files(tmp_path / "v2", {"a.yaml": document("three", "four")})
    import_workspace(tmp_path / "v1", "team")
    import_workspace(tmp_path / "v2", "team")

    suites = {s.path: [c.case_id for c in s.cases.all()] for s in Suite.objects.all()}
    # The three-way rule (docs/sync.md): unchanged in the app, so removed with the files.
    assert suites == {"a.yaml": ["three", "four"]}
    assert Workspace.objects.count() == 1


def test_default_workspace_name_is_the_folder_name(tmp_path: Path) -> None:
    write_files(
        tmp_path / "my-evals",
        {"e.yaml": {"$schema": "agentv-eval-v2", "evalcases": []}},
    )

    call_command("import_evals", str(tmp_path / "my-evals"))

    assert Workspace.objects.get().name == "my-evals"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=eval_files())
def test_any_valid_eval_file_round_trips_and_formats_the_same_from_the_database(
    document: dict[str, Any],
) -> None:
    Workspace.objects.all().delete()
    with tempfile.TemporaryDirectory() as directory:
        root = property_workspace(Path(directory), document)
        workspace = import_workspace(root, "property").workspace
        folder = export_workspace(workspace, Path(directory) / "out").folder
        exported = load_yaml((folder / "evals/suite.yaml").read_bytes()).data

        assert exported == document
        assert key_orders(exported) == key_orders(document)

        contents = read_eval_file((root / "evals/suite.yaml").read_bytes())
        suite = workspace.suites.get()
        formatter = WorkspaceFormatter(workspace)
        for mode in ("lm", "agent"):
            for case, stored in zip(contents.case_inputs(), suite.cases.all(), strict=True):
                from_files = format_case(
                    case, eval_path="evals/suite.yaml", files=DirectoryFiles(root), mode=mode
                )
                assert formatter.format(stored, suite, mode) == from_files


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=period_eval_files())
def test_an_eval_file_of_any_period_round_trips_exactly(document: dict[str, Any]) -> None:
    Workspace.objects.all().delete()
    with tempfile.TemporaryDirectory() as directory:
        root = property_workspace(Path(directory), document)
        workspace = import_workspace(root, "property").workspace
        folder = export_workspace(workspace, Path(directory) / "out").folder
        exported = load_yaml((folder / "evals/suite.yaml").read_bytes()).data

        # repr shows key order and key types (`==` takes `{1: x}` for `{True: x}`).
        assert repr(exported) == repr(document)


# Files whose profile is agentv-2025 (every list of cases but `tests`): the one engine both
# paths share (docs/formatting.md).
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=period_eval_files(cases_keys=("evalcases", "eval_cases", "cases")))
def test_the_database_and_the_files_give_the_same_question_for_any_period(
    document: dict[str, Any],
) -> None:
    Workspace.objects.all().delete()
    with tempfile.TemporaryDirectory() as directory:
        root = property_workspace(Path(directory), document)
        workspace = import_workspace(root, "property").workspace

        contents = read_eval_file((root / "evals/suite.yaml").read_bytes())
        suite = workspace.suites.get()
        formatter = WorkspaceFormatter(workspace)
        for mode in ("lm", "agent"):
            for case, stored in zip(contents.case_inputs(), suite.cases.all(), strict=True):
                from_files = format_case(
                    case, eval_path="evals/suite.yaml", files=DirectoryFiles(root), mode=mode
                )
                assert formatter.format(stored, suite, mode) == from_files

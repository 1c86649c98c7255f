"""Formatting a case for both modes at once gives what formatting it in each mode gives.

The mode changes only how file blocks render, so export formats a case whose input renders
none once and copies it for the other mode; these tests hold that shortcut to the long way.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from evals_app.eval_files.case_parts import split_case
from evals_app.formatting.profile_2025.formatter import MODES
from evals_app.models import Case, Workspace
from evals_app.services.imports.folders import import_workspace
from evals_app.services.profiles import profile_2026, profile_of
from evals_app.services.profiles.workspace_formatter import WorkspaceFormatter
from tests.conftest import EXAMPLES
from tests.exports.test_export_profile_2026 import FIXTURE as TODAY
from tests.factories import property_workspace
from tests.imports.test_periods import PERIODS
from tests.strategies import eval_files

pytestmark = pytest.mark.django_db


def in_both_modes_and_one_by_one(case: Case, formatter: WorkspaceFormatter) -> tuple[Any, Any]:
    suite = case.suite
    if profile_of(suite).expands_tests:
        together = formatter.format_tests_in_modes(case.document, suite, MODES)
        alone = [formatter.format_tests(case.document, suite, mode) for mode in MODES]
        return together, alone
    parts = split_case(case.document)
    formatted = formatter.format_parts_in_modes(parts, suite, MODES)
    return formatted, [formatter.format_parts(parts, suite, mode) for mode in MODES]


@pytest.mark.parametrize("root", [EXAMPLES, PERIODS, TODAY], ids=["examples", "periods", "today"])
def test_both_modes_at_once_are_each_mode_on_its_own(root: Path) -> None:
    workspace = import_workspace(root, "Workspace").workspace
    formatter = WorkspaceFormatter(workspace)

    for case in Case.objects.select_related("suite"):
        together, alone = in_both_modes_and_one_by_one(case, formatter)
        assert together == alone, case.case_id


def test_the_examples_have_cases_formatted_once_and_cases_formatted_per_mode() -> None:
    workspace = import_workspace(EXAMPLES, "Workspace").workspace
    formatter = WorkspaceFormatter(workspace)

    cases_2025 = Case.objects.select_related("suite").exclude(
        suite__profile=profile_2026.PROFILE.name
    )
    once = [
        formatter.format_parts(split_case(case.document), case.suite).mode_free
        for case in cases_2025
    ]

    assert any(once) and not all(once)  # so the test above covers both ways


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=eval_files())
def test_any_file_formats_alike_in_both_modes_at_once(document: dict[str, Any]) -> None:
    Workspace.objects.all().delete()
    with tempfile.TemporaryDirectory() as directory:
        workspace = import_workspace(property_workspace(Path(directory), document), "p").workspace
    formatter = WorkspaceFormatter(workspace)

    for case in Case.objects.select_related("suite"):
        together, alone = in_both_modes_and_one_by_one(case, formatter)
        assert together == alone

"""Reading stored cases in bulk gives what reading them one by one gives.

Export reads cases as plain rows in chunks; the preview reads only the files a case may refer
to; the import computes the suite page's summaries while it checks the files. Each must agree
with the plain way of doing the same.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from evals_app.eval_files.case_parts import split_case
from evals_app.eval_files.json_text import decode_json
from evals_app.models import Case, ReviewStatus, Workspace
from evals_app.services.cases.positions import GAP
from evals_app.services.cases.reading import document_batches, stored_cases
from evals_app.services.cases.summaries import SUMMARY_FIELDS, refresh_summaries
from evals_app.services.imports.folders import import_workspace
from evals_app.services.profiles.workspace_formatter import WorkspaceFormatter
from tests.factories import key_orders, property_workspace
from tests.strategies import eval_files

pytestmark = pytest.mark.django_db


def assert_rows_read_like_models(workspace: Workspace) -> None:
    for suite in workspace.suites.all():
        by_models = [case.document for case in suite.cases.order_by("position")]
        for chunk_size in (1, 2, 500):
            chunks = stored_cases(suite.cases.all(), chunk_size=chunk_size)
            by_rows = [case.document for case in chunks]
            assert by_rows == by_models, chunk_size
            assert key_orders(by_rows) == key_orders(by_models)


def test_cases_read_as_rows_in_chunks_are_the_cases_read_as_models(example_root: Path) -> None:
    assert_rows_read_like_models(import_workspace(example_root, "Examples").workspace)


@pytest.mark.parametrize("batch_size", [1, 2, 3, 500])
@pytest.mark.parametrize("approved_only", [False, True])
def test_the_cases_of_many_suites_read_in_batches_are_each_suites_cases_in_order(
    example_root: Path, batch_size: int, approved_only: bool
) -> None:
    workspace = import_workspace(example_root, "Examples").workspace
    second = Case.objects.filter(suite__workspace=workspace, position=GAP)  # of each suite
    second.update(status=ReviewStatus.APPROVED)
    case_filter = {"status": ReviewStatus.APPROVED} if approved_only else {}
    ordered = workspace.suites.order_by("path")

    suites, batches = document_batches(ordered, batch_size=batch_size, **case_filter)
    read: dict[str, list[Any]] = {}
    whole: dict[str, bool] = {}
    for batch in batches:
        assert sum(len(texts) for _, texts, _ in batch) <= batch_size or len(batch) == 1
        for index, texts, all_of_them in batch:
            path = suites[index].path
            read.setdefault(path, []).extend(map(decode_json, texts))
            whole[path] = all_of_them and path not in whole

    expected = {
        suite.path: [
            case.document for case in suite.cases.filter(**case_filter).order_by("position")
        ]
        for suite in ordered
    }
    assert read == expected
    assert list(read) == [suite.path for suite in ordered]
    assert whole == {path: len(cases) <= batch_size for path, cases in expected.items()}
    assert sum(len(cases) for cases in read.values()) > 2


def test_the_preview_reads_only_the_files_a_case_needs_and_formats_the_same(
    example_root: Path,
) -> None:
    workspace = import_workspace(example_root, "Examples").workspace

    for case in Case.objects.filter(suite__workspace=workspace).select_related("suite"):
        parts = split_case(case.document)
        for mode in ("lm", "agent"):
            everything = WorkspaceFormatter(workspace).format_parts(parts, case.suite, mode)
            needed = WorkspaceFormatter(workspace).format_single(parts, case.suite, mode)
            assert needed == everything, (case.case_id, mode)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=eval_files())
def test_any_imported_file_reads_back_alike_and_with_the_summaries_formatting_gives(
    document: dict[str, Any],
) -> None:
    Workspace.objects.all().delete()
    with tempfile.TemporaryDirectory() as directory:
        root = property_workspace(Path(directory), document)
        workspace = import_workspace(root, "property").workspace

    assert_rows_read_like_models(workspace)
    suite = workspace.suites.get()
    cases = list(suite.cases.order_by("position"))
    stored = [[getattr(case, name) for name in SUMMARY_FIELDS] for case in cases]
    for case in cases:
        case.summary_current = False
    refresh_summaries(WorkspaceFormatter(workspace), suite, cases)
    assert [[getattr(case, name) for name in SUMMARY_FIELDS] for case in cases] == stored

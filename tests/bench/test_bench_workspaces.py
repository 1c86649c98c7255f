"""The benchmark's text-heavy workspace imports, is skipped where it should be, and exports
losslessly: its figures measure the import and export of real work, not of refusals."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from evals_app.eval_files.yaml_loader import load_yaml
from evals_app.services.imports.folders import import_workspace
from tests.workload.generate import TEXT_HEAVY, generate_workspace
from tests.workload.generate_periods import NON_EVAL_FILES

pytestmark = pytest.mark.django_db


def test_a_small_text_heavy_workspace_imports_and_exports_every_file_as_it_was(
    tmp_path: Path,
) -> None:
    generated = generate_workspace(tmp_path / "ws", cases=48, seed=3, profile=TEXT_HEAVY)

    summary = import_workspace(generated.root, "text-heavy")
    call_command("export_evals", "--out", str(tmp_path / "out"), "--workspace", "text-heavy")

    assert (summary.suites, summary.cases) == (len(generated.suite_paths), 48)
    assert set(NON_EVAL_FILES) <= {path for path, _ in summary.skipped}
    folder = tmp_path / "out" / summary.workspace.slug
    for path in generated.suite_paths:
        original = load_yaml((generated.root / path).read_bytes()).data
        assert load_yaml((folder / path).read_bytes()).data == original, path

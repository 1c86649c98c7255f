"""A run's private folder: the workspace's files, the suite's file holding only the cases to
run as they are now, and the run's own targets file (docs/runs.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...models import Suite
from ..exports.files import ExportFolder
from ..exports.suite_texts import suite_file_text
from .targets import write_targets_file


def write_run_folder(folder: Path, suite: Suite, documents: list[dict[Any, Any]]) -> Path:
    """Write everything AgentV reads under `folder`; returns the suite file's path."""
    files = ExportFolder(folder / "workspace")
    for path, text in suite.workspace.file_texts().items():
        if path != suite.path:
            files.target(path).write_text(text, encoding="utf-8")
    eval_file = files.target(suite.path)
    eval_file.write_text(suite_file_text(suite, documents), encoding="utf-8")
    write_targets_file(folder)
    return eval_file

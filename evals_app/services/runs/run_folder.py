"""A run's private folder: the workspace's files and the suite's file holding only the cases to
run as they are now (docs/runs.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...models import Suite
from ..exports.files import ExportFolder


def write_run_folder(
    folder: Path, suite: Suite, documents: list[dict[Any, Any]], suite_text: str
) -> Path:
    """Write everything AgentV reads under `folder`, the suite's file as `suite_text` (its
    spelling for the AgentV that runs it, `spellings.py`); returns the suite file's path."""
    files = ExportFolder(folder / "workspace")
    for path, text in suite.workspace.file_texts().items():
        if path != suite.path:
            files.target(path).write_text(text, encoding="utf-8")
    eval_file = files.target(suite.path)
    eval_file.write_text(suite_text, encoding="utf-8")
    return eval_file

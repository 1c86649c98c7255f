"""Exporting suites in another tool's format: promptfoo config YAML or chat JSONL, one file per
suite (docs/exports.md). The mapping is the pure `eval_files/export_formats`; this reads the
suite's cases and files for it, and writes a workspace's files atomically.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...eval_files.export_formats import EXPORT_FORMATS, ExportFormat, portable_suite
from ...eval_files.grading_upgrade import judge_prompt_values
from ...formatting.workspace_files import resolve_file
from ...models import ReviewStatus, Suite, Workspace
from ..cases.reading import stored_cases
from ..profiles import profile_of
from ..profiles.workspace_formatter import WorkspaceFormatter
from .files import ExportFolder, WrittenFiles, held_folder, write_temporary


class ExportRefused(Exception):
    """An export in another format that cannot be made: an unknown format, or two suites that
    would be written to one file."""


@dataclass(frozen=True)
class ExportedSuite:
    """One suite in another format: the file's name, its text and what it could not carry."""

    format: ExportFormat
    file_name: str
    text: str
    tests: int
    warnings: list[str]


@dataclass
class OtherFormatSummary:
    """What a workspace's export in another format wrote."""

    folder: Path
    suites: int = 0
    tests: int = 0
    warnings: list[str] = field(default_factory=list)


def export_format(name: str) -> ExportFormat:
    """The export format called `name`; raises ExportRefused for another name."""
    try:
        return EXPORT_FORMATS[name]
    except KeyError:
        known = ", ".join(EXPORT_FORMATS)
        raise ExportRefused(f"no export format {name!r} (one of {known})") from None


def export_suite(
    suite: Suite,
    format_name: str,
    *,
    formatter: WorkspaceFormatter | None = None,
    approved_only: bool = False,
) -> ExportedSuite:
    """`suite` written in the format `format_name` (`promptfoo`, `chat-jsonl`). `formatter`
    reads the workspace's files once for several suites."""
    chosen = export_format(format_name)
    formatter = formatter or WorkspaceFormatter(suite.workspace)
    cases = suite.cases.filter(status=ReviewStatus.APPROVED) if approved_only else suite.cases.all()
    documents = [case.document for case in stored_cases(cases)]
    header = formatter.file_header(suite)
    portable = portable_suite(
        suite.path,
        header,
        documents,
        older=profile_of(suite).is_older(suite),
        cases_key=suite.cases_key or None,
        files=formatter.files,
        prompt_files=_prompt_files(suite, header, documents, formatter),
    )
    text = chosen.write(portable, formatter.files)
    return ExportedSuite(
        chosen, chosen.file_name(suite.path), text, len(portable.tests), portable.warnings.lines
    )


def export_suite_every_way(suite: Suite) -> list[ExportedSuite]:
    """`suite` in each format it exports to, the workspace's files read once."""
    formatter = WorkspaceFormatter(suite.workspace)
    return [export_suite(suite, name, formatter=formatter) for name in EXPORT_FORMATS]


def export_workspace_as(
    workspace: Workspace,
    out: Path,
    format_name: str,
    *,
    approved_only: bool = False,
    on_suite: Callable[[], object] = lambda: None,
) -> OtherFormatSummary:
    """Write every suite of `workspace` in the format `format_name` under `out/<slug>/`, each
    at its path with its suffix replaced (`evals/a.eval.yaml` → `evals/a.eval.promptfoo.yaml`);
    the files replace the previous ones together, as every export does (docs/formats.md,
    "Export")."""
    chosen = export_format(format_name)
    suites = list(workspace.suites.order_by("path"))
    paths = Counter(chosen.file_path(suite.path) for suite in suites)
    clashes = sorted(path for path, number in paths.items() if number > 1)
    if clashes:
        raise ExportRefused(
            f"two suites would be written to {clashes[0]}: rename one to export as {format_name}"
        )
    folder = out / workspace.slug
    summary = OtherFormatSummary(folder)
    formatter = WorkspaceFormatter(workspace)
    with held_folder(folder), WrittenFiles() as written:
        folders = ExportFolder(folder)
        for suite in suites:
            exported = export_suite(
                suite, format_name, formatter=formatter, approved_only=approved_only
            )
            target = folders.target(chosen.file_path(suite.path))
            written.adopt(write_temporary(target, exported.text.encode("utf-8")))
            summary.suites += 1
            summary.tests += exported.tests
            summary.warnings.extend(exported.warnings)
            on_suite()
    return summary


def _prompt_files(
    suite: Suite,
    header: dict[Any, Any],
    documents: list[dict[Any, Any]],
    formatter: WorkspaceFormatter,
) -> dict[str, str]:
    """The judge prompts of an older suite that name a workspace file, as its upgrade takes
    them (services/suites/upgrade.py does the same)."""
    found: dict[str, str] = {}
    for value in judge_prompt_values(header, documents):
        if resolve_file(value, suite.path, formatter.files).file is not None:
            found[value] = value
    return found

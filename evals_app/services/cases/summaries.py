"""The suite page's summary of each case (input turns, role markers and why, warnings), stored.

Formatting every case of a suite on each view of the page would take seconds for a thousand
cases, so each case keeps its summary (lm mode) in its row. Whatever changes a case, or the
files or guideline patterns of its workspace, clears `Case.summary_current` (the services do
it, with the `mark_*` functions below for workspace-wide changes); `refresh_summaries`
recomputes the summaries that are not current, and the suite page calls it on what it lists.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Q

from ...eval_files.case_parts import split_case
from ...eval_files.configs import is_config_path
from ...eval_files.errors import EvalFileError
from ...models import Case, Suite, Workspace
from ..profiles import Summary, profile_of
from ..profiles.workspace_formatter import WorkspaceFormatter

SUMMARY_FIELDS = [
    "summary_current",
    "input_turns",
    "role_markers",
    "marker_reason",
    "format_warnings",
    "format_problem",
]


@dataclass(frozen=True)
class SummaryWarning:
    """A stored formatting warning."""

    message: str


@dataclass(frozen=True)
class StoredFormatting:
    """How a case formats, as its stored summary says (the suite page's `formatted`)."""

    role_markers: bool
    reason: str
    warnings: tuple[SummaryWarning, ...]


def stored_formatting(case: Case) -> StoredFormatting | None:
    """The stored summary of `case`; None when it cannot be formatted (see `format_problem`)."""
    if case.role_markers is None:
        return None
    warnings = tuple(SummaryWarning(message) for message in case.format_warnings)
    return StoredFormatting(case.role_markers, case.marker_reason, warnings)


def set_summary(case: Case, summary: Summary) -> None:
    """Put `summary` on `case` (not saved) and mark it current."""
    case.summary_current = True
    case.input_turns = summary.input_turns
    case.role_markers = summary.role_markers
    case.marker_reason = summary.reason
    case.format_warnings = list(summary.warnings)
    case.format_problem = summary.problem


def refresh_summaries(formatter: WorkspaceFormatter, suite: Suite, cases: Sequence[Case]) -> None:
    """Recompute and save the summaries of those `cases` (of `suite`) that are not current."""
    stale = [case for case in cases if not case.summary_current]
    profile = profile_of(suite)
    for case in stale:
        try:
            parts = split_case(case.document)
        except EvalFileError as error:
            set_summary(case, Summary(0, None, problem=str(error)))
        else:
            set_summary(case, profile.summary(formatter, suite, case.document, parts))
    if stale:
        Case.objects.bulk_update(stale, SUMMARY_FIELDS)


def mark_workspace_stale(workspace: Workspace) -> None:
    """Every summary of the workspace is out of date (e.g. its guideline patterns changed)."""
    Case.objects.filter(suite__workspace=workspace).update(summary_current=False)


def mark_file_stale(workspace: Workspace, path: str) -> None:
    """The summaries that a change of the workspace file at `path` may change are out of date.

    A reference resolves to `path` only if its text holds the file's name (resolution joins
    folders to the reference and normalises, so the last name in `path` comes from the
    reference), or if `path` is a folder above an eval file; judge prompts are references too.
    """
    name = posixpath.basename(path)
    cases = Case.objects.filter(suite__workspace=workspace)
    # JSON text escapes quotes, backslashes and control characters: such names match nothing.
    awkward = not name.isprintable() or '"' in name or "\\" in name
    if not name or awkward or is_config_path(path) or _is_folder_of_a_suite(workspace, path):
        cases.update(summary_current=False)  # rare: not worth narrowing down
        return
    cases.filter(Q(document__contains=name) | Q(suite__document__contains=name)).update(
        summary_current=False
    )


def _is_folder_of_a_suite(workspace: Workspace, path: str) -> bool:
    return workspace.suites.filter(path__startswith=f"{path}/").exists()

"""The suite page's summary of each case (input turns, role markers and why, warnings), stored.

Formatting every case of a suite on each view of the page would take seconds for a thousand
cases, so each case keeps its summary (lm mode) in its row, and no request ever recomputes a
whole suite's (docs/performance.md, "Summaries"):

- a save of a case (edit, paste, add, duplicate) stores its new summary with it (`refresh_case`);
- a change that may alter how every case of a suite formats (guideline patterns, profile, path,
  top-level fields, upgrade) bumps the suite's `summary_generation` (`mark_suite_stale`,
  `mark_workspace_stale`): one row per suite;
- a change of a workspace file clears `summary_current` on the cases that may refer to it;
- the worker then recomputes what is out of date, in small batches (`refresh_workspace`), each
  one short transaction; meanwhile the suite page says so (`pending_summaries`);
- a migration that changes what a summary holds marks every summary out of date; a worker that
  starts asks for the refresh of each workspace that has one (`refresh_stale_workspaces`).
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F, Q, QuerySet
from django_tasks import task

from ...eval_files.case_parts import split_case
from ...eval_files.configs import is_config_path
from ...eval_files.errors import EvalFileError
from ...models import Case, Suite, Workspace
from ..jobs.workers import give_pages_the_processor
from ..profiles import Summary, profile_of
from ..profiles.workspace_formatter import WorkspaceFormatter

SUMMARY_FIELDS = [
    "summary_current",
    "summary_generation",
    "input_turns",
    "role_markers",
    "marker_reason",
    "format_warnings",
    "format_problem",
    "lint_findings",
]
# The cases the worker recomputes in one transaction: small enough that a save elsewhere
# waits a moment at most (SQLite has one writer), large enough that a query per batch is
# nothing next to the formatting.
REFRESH_BATCH = 100


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


def is_current(case: Case, suite: Suite) -> bool:
    """Whether the stored summary of `case` (of `suite`) says how it formats today."""
    return case.summary_current and case.summary_generation == suite.summary_generation


def set_summary(case: Case, summary: Summary, generation: int = 0) -> None:
    """Put `summary` on `case` (not saved) and mark it current at the suite's `generation`."""
    case.summary_current = True
    case.summary_generation = generation
    case.input_turns = summary.input_turns
    case.role_markers = summary.role_markers
    case.marker_reason = summary.reason
    case.format_warnings = list(summary.warnings)
    case.format_problem = summary.problem
    case.lint_findings = list(summary.lint)


def summary_of(formatter: WorkspaceFormatter, suite: Suite, case: Case) -> Summary:
    """How `case` of `suite` formats, in short (a case no AgentV reads: why)."""
    try:
        parts = split_case(case.document)
    except EvalFileError as error:
        return Summary(0, None, problem=str(error))
    return profile_of(suite).summary(formatter, suite, case.document, parts)


def refresh_case(case: Case, suite: Suite) -> None:
    """Put the summary of `case` as it is now on it (not saved), as a save does: one case's
    formatting, so the suite page never has to."""
    # The generation as stored now: `suite` may have been read before a change bumped it.
    suite.summary_generation = Suite.objects.values_list("summary_generation", flat=True).get(
        pk=suite.pk
    )
    formatter = WorkspaceFormatter(suite.workspace)
    set_summary(case, summary_of(formatter, suite, case), suite.summary_generation)


def refresh_summaries(formatter: WorkspaceFormatter, suite: Suite, cases: Sequence[Case]) -> int:
    """Recompute and save the summaries of those `cases` (of `suite`) that are not current;
    returns how many. The worker's step, never a request's."""
    stale = [case for case in cases if not is_current(case, suite)]
    for case in stale:
        set_summary(case, summary_of(formatter, suite, case), suite.summary_generation)
    if stale:
        Case.objects.bulk_update(stale, SUMMARY_FIELDS)
    return len(stale)


def out_of_date(suite: Suite) -> Q:
    """The cases of `suite` whose stored summaries are not current."""
    generation = suite.summary_generation
    return (
        Q(summary_current=False)
        | Q(summary_generation__lt=generation)
        | Q(summary_generation__gt=generation)
    )


def pending_summaries(suite: Suite) -> bool:
    """Whether some summaries of `suite` wait for the worker: one query of three parts, each
    a range of an index (one OR over them would read every case of the suite)."""
    cases = Case.objects.filter(suite=suite).order_by().values("pk")
    generation = suite.summary_generation
    # `IN (false)`, not `= false`, which Django writes as `NOT summary_current`: SQLite reads
    # that from every index entry of the suite rather than from the range of stale ones.
    stale = cases.filter(summary_current__in=[False]).union(
        cases.filter(summary_generation__lt=generation),
        cases.filter(summary_generation__gt=generation),
        all=True,
    )
    return bool(stale[:1])


def mark_suites_stale(suites: QuerySet[Suite], workspace_pk: int) -> None:
    """Every summary of `suites` (of the workspace `workspace_pk`) is out of date (their
    profile, path or top-level fields changed, or they were upgraded): one UPDATE of the suite
    rows, whatever their number of cases; the worker recomputes them."""
    suites.update(summary_generation=F("summary_generation") + 1)
    refresh_later(workspace_pk)


def mark_workspace_stale(workspace: Workspace) -> None:
    """Every summary of the workspace is out of date (e.g. its guideline patterns changed)."""
    mark_suites_stale(Suite.objects.filter(workspace=workspace), workspace.pk)


def mark_file_stale(workspace: Workspace, path: str) -> None:
    """The summaries that a change of the workspace file at `path` may change are out of date.

    A reference resolves to `path` only if its text holds the file's name (resolution joins
    folders to the reference and normalises, so the last name in `path` comes from the
    reference), or if `path` is a folder above an eval file; judge prompts are references too.
    """
    name = posixpath.basename(path)
    # JSON text escapes quotes, backslashes and control characters: such names match nothing.
    awkward = not name.isprintable() or '"' in name or "\\" in name
    if not name or awkward or is_config_path(path) or _is_folder_of_a_suite(workspace, path):
        mark_workspace_stale(workspace)  # rare: not worth narrowing down
        return
    cases = Case.objects.filter(suite__workspace=workspace)
    cases.filter(Q(document__contains=name) | Q(suite__document__contains=name)).update(
        summary_current=False
    )
    refresh_later(workspace.pk)


def _is_folder_of_a_suite(workspace: Workspace, path: str) -> bool:
    return workspace.suites.filter(path__startswith=f"{path}/").exists()


def refresh_stale_workspaces() -> list[int]:
    """Ask the worker to refresh each workspace that has an out-of-date summary no refresh was
    asked for (a migration marked them; a worker calls this as it starts); returns them."""
    stale = (
        Case.objects.filter(summary_current__in=[False])
        .order_by()
        .values_list("suite__workspace", flat=True)
        .distinct()
    )
    workspaces = sorted(stale)
    for workspace_pk in workspaces:
        refresh_later(workspace_pk)
    return workspaces


def refresh_later(workspace_pk: int) -> None:
    """Ask the worker to bring the workspace's summaries up to date. Queued in the caller's
    transaction, so the worker sees the change that made them stale."""
    refresh_summaries_task.enqueue(workspace_pk)


@task()
def refresh_summaries_task(workspace_pk: int) -> None:
    """The worker's task: `refresh_workspace`."""
    give_pages_the_processor()
    refresh_workspace(workspace_pk)


def refresh_workspace(workspace_pk: int, batch_size: int = REFRESH_BATCH) -> int:
    """Recompute every out-of-date summary of the workspace, `batch_size` cases per
    transaction; returns how many were recomputed.

    Each batch locks its case rows, then reads the workspace's files: a save or a file change
    that commits meanwhile either came first (and is read) or waits for the batch and marks
    its cases again. A change that bumps a suite's generation queues another refresh, so a
    batch written at the old generation is recomputed by that one.
    """
    done = 0
    suite_pks = list(Suite.objects.filter(workspace_id=workspace_pk).values_list("pk", flat=True))
    for suite_pk in suite_pks:
        after = 0
        while True:
            with transaction.atomic():
                suite = Suite.objects.select_related("workspace").filter(pk=suite_pk).first()
                if suite is None:
                    break  # deleted meanwhile
                batch = list(
                    Case.objects.select_for_update()
                    .filter(out_of_date(suite), suite=suite, pk__gt=after)
                    .order_by("pk")[:batch_size]
                )
                if not batch:
                    break
                done += refresh_summaries(WorkspaceFormatter(suite.workspace), suite, batch)
                after = batch[-1].pk
    return done

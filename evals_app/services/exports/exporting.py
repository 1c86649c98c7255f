"""Exporting workspaces: eval YAML, stored files, config and `formatted.jsonl`, written atomically.

Cases are read in batches (case_reading) and formatted a batch at a time, in worker processes
for a large workspace (export_batches), which also write the files of the suites a batch holds
whole and their lines of `formatted.jsonl`, in order. The other files are written here, and
everything is put in place together once complete (export_files). Memory does not grow with
the number of cases.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from itertools import chain, groupby
from pathlib import Path
from typing import Any

from django.db.models import QuerySet

from ...formatting.profile_2025.formatter import Mode
from ...models import ReviewStatus, Suite, Workspace
from ..cases.reading import document_batches, stored_cases
from ..profiles.workspace_formatter import WorkspaceFormatter
from .batches import (
    BATCH_SIZE,
    WORKER_BATCH_SIZE,
    Batch,
    BatchResult,
    ExportWork,
    SuiteSlice,
    default_jobs,
    formatted_batches,
)
from .files import (
    ExportFolder,
    TemporaryFile,
    WrittenFiles,
    held_folder,
    write_temporary,
)
from .suite_texts import is_untouched, rewritten_bytes, source_bytes, suite_file_text

FORMATTED_FILE = "formatted.jsonl"


@dataclass
class ExportSummary:
    """What one workspace's export wrote."""

    workspace: Workspace
    folder: Path
    suites: int = 0
    cases: int = 0
    files: int = 0
    formatted_lines: int = 0
    warnings: list[str] = field(default_factory=list)


def export_workspace(
    workspace: Workspace,
    out: Path,
    *,
    modes: tuple[Mode, ...] = ("lm", "agent"),
    toon: bool = False,
    tokens: bool = False,
    approved_only: bool = False,
    jobs: int | None = None,
    on_case: Callable[[], object] = lambda: None,
) -> ExportSummary:
    """Write `workspace` under `out/<slug>/`; every file is replaced atomically.

    Each suite is written in the form and spelling it came in (docs/formats.md); CSV files
    of cases are stored files, written as they are. With `tokens`, each row of
    `formatted.jsonl` holds its token counts. With `approved_only`, only cases whose
    review is approved are written (and formatted). `jobs`: the worker processes that format
    a workspace of more than one batch of cases (default: one per core, at most 4; 1 formats
    in this process).
    """
    folder = out / workspace.slug
    with held_folder(folder):  # another export into it is waited for
        summary = ExportSummary(workspace=workspace, folder=folder)
        case_filter: dict[str, Any] = {"status": ReviewStatus.APPROVED} if approved_only else {}
        jobs = jobs or default_jobs()
        batch_size = WORKER_BATCH_SIZE if jobs > 1 else BATCH_SIZE
        suites, case_batches = document_batches(
            workspace.suites.order_by("path"), batch_size=batch_size, **case_filter
        )
        formatter = WorkspaceFormatter(workspace)
        formatter.read_everything(suites)
        folders = ExportFolder(folder)
        work = ExportWork(formatter, suites, folders, modes, toon, tokens)
        cases = sum(suite.stored_case_count for suite in suites)  # type: ignore[attr-defined]
        # The stored files first, written by one worker while the others format the first cases.
        with_texts = (_with_source_texts(suites, read) for read in case_batches)
        batches = chain([Batch([], stored_files=True)], with_texts)
        with (
            WrittenFiles() as written,
            written.new_file(folders.target(FORMATTED_FILE)) as jsonl,
            closing(
                formatted_batches(
                    work,
                    batches,
                    jobs=jobs,
                    parallel=cases > batch_size,
                    lines_out=jsonl,
                )
            ) as results,
        ):
            slices = _taken_slices(results, summary, written)
            spread: list[tuple[int, bool]] = []  # suites whose cases spanned batches: untouched?
            for index, suite_slices in groupby(slices, key=lambda piece: piece.suite):
                summary.suites += 1
                untouched = _take_suite(work, index, suite_slices, written, summary, on_case)
                if untouched is not None:
                    spread.append((index, untouched))
            # Once every batch is done and let go, so that memory holds one suite's text alone.
            for index, untouched in spread:
                written.adopt(_spread_suite_file(work, index, untouched, case_filter))
        return summary


def _with_source_texts(suites: Sequence[Suite], cases: list[tuple[int, list[str], bool]]) -> Batch:
    """A batch of `cases` with the text as read of each suite it holds whole, whose file it
    writes (one query): the texts are read a batch at a time, never all at once."""
    whole = {
        suites[index].pk: index
        for index, _, all_of_them in cases
        if all_of_them and not suites[index].read_only
    }
    if not whole:
        return Batch(cases)
    texts = source_bytes(Suite.objects.filter(pk__in=whole))
    return Batch(cases, source_texts={whole[pk]: text for pk, text in texts.items()})


def _take_suite(
    work: ExportWork,
    index: int,
    slices: Iterator[SuiteSlice],
    written: WrittenFiles,
    summary: ExportSummary,
    on_case: Callable[[], object],
) -> bool | None:
    """Count the suite's cases and put its file in place as its batch wrote it. When its
    cases spanned batches, whether they are untouched (their texts streamed through a
    digest, never held together): its file is written later (`_spread_suite_file`). None
    when there is nothing more to write (its file is written, or is a stored file)."""
    first = next(slices)
    case_texts = _counted(chain([first], slices), summary, on_case)
    suite = work.suites[index]
    untouched = None
    if first.file is not None:
        written.adopt(first.file)
    elif not suite.read_only:
        untouched = is_untouched(suite, case_texts)
    for _ in case_texts:  # counted; the file has no place for them (`tests: file://…`)
        pass
    return untouched


def _spread_suite_file(
    work: ExportWork, index: int, untouched: bool, case_filter: dict[str, Any]
) -> TemporaryFile:
    """The file of a suite whose cases spanned batches: its text as read if they are
    `untouched`, else written from its cases, read again (one suite's at a time)."""
    suite = work.suites[index]
    source = source_bytes(Suite.objects.filter(pk=suite.pk)).get(suite.pk)
    if source is None or not untouched:
        documents = [case.document for case in stored_cases(suite.cases.filter(**case_filter))]
        source = rewritten_bytes(suite, source, documents)
    return write_temporary(work.folder.target(suite.path), source)


def exported_texts(
    workspace: Workspace,
    documents_of: Callable[[Suite], Iterable[dict[Any, Any]] | None] | None = None,
    *,
    suites: QuerySet[Suite] | None = None,
) -> Iterator[tuple[str, str]]:
    """(path, text) of every file an export writes for the workspace's files and suites
    (not `formatted.jsonl`); `documents_of` gives a suite's case documents (default: as
    stored), or None to leave the suite out. `suites` are the suites to write (default:
    all of the workspace's)."""
    yield from sorted(workspace.file_texts().items())
    for suite in (workspace.suites.all() if suites is None else suites).order_by("path"):
        if suite.read_only:  # its file is a stored file, yielded above
            continue
        documents = (
            documents_of(suite)
            if documents_of is not None
            else (case.document for case in stored_cases(suite.cases.all()))
        )
        if documents is not None:
            yield suite.path, suite_file_text(suite, list(documents))


def _taken_slices(
    results: Iterable[BatchResult], summary: ExportSummary, written: WrittenFiles
) -> Iterator[SuiteSlice]:
    """The suite slices of `results`, each batch's stored files taken first. Each batch's
    files start going to disk while the next are formatted."""
    for result in results:
        summary.formatted_lines += result.line_count
        summary.warnings.extend(result.warnings)
        for file in result.stored_files:
            written.adopt(file)
        summary.files += len(result.stored_files)
        yield from result.slices
        written.sync_ahead()


def _counted(
    slices: Iterable[SuiteSlice], summary: ExportSummary, on_case: Callable[[], object]
) -> Iterator[str]:
    """The case texts of one suite's slices, each case counted once it is taken (a suite
    whose file is a stored file has cases but no texts)."""
    for piece in slices:
        summary.cases += piece.cases
        for _ in range(piece.cases - len(piece.case_texts)):
            on_case()
        for text in piece.case_texts:
            yield text
            on_case()

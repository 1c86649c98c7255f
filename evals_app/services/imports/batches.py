"""Importing a folder into a new workspace in bounded batches (docs/jobs.md, "Imports").

A first pass reads, checks and formats every eval file, one at a time, and puts what each will
write (its suite and case rows, as JSON text) in a temporary spool file: nothing is written
when any file is refused, and no more than one file's cases is ever parsed at once. The second
pass writes the spool a few thousand cases per short transaction into a hidden workspace
(staging.py), which one short final transaction reveals. So saves elsewhere wait for one batch
at most, and memory does not grow with the workspace (docs/performance.md, "Imports").
"""

from __future__ import annotations

import pickle
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from django.db import connection, transaction

from ...eval_files.discovery import Discovery, FoundEvalFile, discover
from ...eval_files.faithful_writing import json_digest
from ...eval_files.file_trees import DirectoryTree
from ...eval_files.json_text import encode_json
from ...formatting.workspace_files import DirectoryFiles
from ...models import Case, Suite, Workspace, WorkspaceFile
from ..cases.documents import suite_row
from ..cases.positions import spread_positions
from ..cases.summaries import refresh_later
from ..jobs.progress import Progress
from ..profiles import Summary
from ..repository import git as git_repository
from ..repository.settled import ReadFiles, imported_states
from .folder_reading import (
    FolderReading,
    ImportFailed,
    ImportSummary,
    check_location,
    link_repository,
    skipped_link,
)
from .row_inserts import insert_rows, update_rows
from .staging import hidden_workspace, remove_hidden, reveal, still_importing

# A batch holds at most this many suites (fewer than current_stamps' 100, so that a batch's
# stamps read its own rows only) and this many characters of cases' JSON: writing a case costs
# about its length (the search index reads it all), and a save elsewhere waits for one batch.
SUITES_PER_BATCH = 50
BATCH_TEXT = 500_000
# On SQLite, an import beside the site's users (a .zip upload) writes half as much a batch and
# pauses between two, so that a waiting save gets the one writer within a moment.
SHARED_BATCH_TEXT = 250_000
SQLITE_PAUSE = 0.05  # seconds between two batches
FILES_PER_BATCH = 500  # workspace files (guidelines, attachments, configs) per transaction
CASE_COLUMNS = ("suite", "position", "case_id", "document", "base_document")
# The columns of a case's stored summary, in the order of _summary_columns.
SUMMARY_COLUMNS = (
    "summary_current",
    "input_turns",
    "role_markers",
    "marker_reason",
    "format_warnings",
    "format_problem",
    "lint_findings",
)
SUITE_TEXT_COLUMNS = ("source_text", "base_source_text", "settled_stamp", "base_blob", "base_reads")


@dataclass
class StagedSuite:
    """One eval file as its batch writes it: its unsaved suite row, its cases' (position, id,
    document as JSON), their summaries' columns, its text, and the files its cases read."""

    suite: Suite
    cases: list[tuple[int, str, str]]
    summaries: list[tuple[object, ...]]
    text: str | None
    read: ReadFiles | None


def import_new_workspace(
    path: Path,
    name: str,
    location: git_repository.WorkTreeLocation | None,
    checkout_folder: str,
    *,
    dry_run: bool,
    progress: Progress,
    then: Callable[[ImportSummary], None] | None,
    share_the_writer: bool = False,
) -> ImportSummary:
    """Import the folder (or single eval file) `path` as the new workspace `name`, as
    folders.import_workspace describes; `then` runs in the final transaction."""
    root = (path.parent if path.is_file() else path).resolve()
    single = path.resolve() if path.is_file() else None
    summary = ImportSummary(workspace=Workspace(name=name))
    reading = FolderReading(DirectoryFiles(root))
    with tempfile.TemporaryFile(prefix="agentv-import-") as spool:
        found = _read_all(root, single, location, reading, summary, spool, progress)
        if found.errors:
            raise ImportFailed(found.errors)
        check_location(location, path)
        summary.warnings += [str(note) for note in found.notes] + reading.file_warnings
        summary.skipped = found.skipped + summary.skipped
        stored = reading.storable(summary, root if location is not None else None)
        summary.files = len(stored)
        if dry_run:
            return summary
        exact = reading.exact()
        summary.workspace = workspace = hidden_workspace(name, checkout_folder)
        try:
            _write(workspace, stored, spool, summary.suites, exact, progress, share_the_writer)
            with transaction.atomic():
                reveal(workspace)
                if location is not None:
                    link_repository(workspace, location)
                if not exact:
                    refresh_later(workspace.pk)
                if then is not None:
                    then(summary)
        except BaseException:
            # Failed, cancelled or refused by `then`: nothing of it stays, not even hidden.
            remove_hidden(workspace.pk)
            raise
    return summary


def _read_all(
    root: Path,
    single: Path | None,
    location: git_repository.WorkTreeLocation | None,
    reading: FolderReading,
    summary: ImportSummary,
    spool: IO[bytes],
    progress: Progress,
) -> Discovery:
    """The first pass: discover, check and format each eval file, spooling what it will write."""
    yaml_files = 1 if single is not None else len(DirectoryTree(root).yaml_paths())
    headers: dict[str, dict[Any, Any]] = {}
    configs_read = False

    def shed(eval_file: FoundEvalFile, found: Discovery) -> FoundEvalFile:
        nonlocal configs_read
        if not configs_read:  # discovery reads them first
            reading.read_configs(found.configs, summary)
            configs_read = True
        progress(summary.suites, max(yaml_files, summary.suites), "eval files read")
        outline = eval_file.outline()
        if found.errors or (location is not None and skipped_link(root, eval_file.path, summary)):
            return outline  # refused anyway, or not imported
        headers[eval_file.path] = outline.contents.header
        header = headers.get(eval_file.referenced_by or "", eval_file.contents.header)
        summaries = reading.format_file(eval_file, header)
        pickle.dump(_staged(eval_file, summaries, reading.reads.pop(eval_file.path, None)), spool)
        summary.suites += 1
        summary.cases += len(eval_file.contents.cases)
        return outline

    found = discover(root, single, shed)
    if not configs_read:
        reading.read_configs(found.configs, summary)
    return found


def _staged(
    eval_file: FoundEvalFile, summaries: list[Summary], read: ReadFiles | None
) -> StagedSuite:
    contents = eval_file.contents
    suite = suite_row(contents, eval_file.path, eval_file.referenced_by or "")
    suite.base_document = contents.header
    texts = [encode_json(case) for case in contents.cases]
    if eval_file.text is not None:  # the digest of what the text reads as, from its JSON
        suite.source_digest = json_digest(encode_json(contents.header), texts)
    # GAP apart, so that inserting a case later moves no other (cases/positions.py).
    positions = spread_positions(len(contents.parts))
    cases = [
        (position, parts.case_id, text)
        for position, parts, text in zip(positions, contents.parts, texts, strict=True)
    ]
    columns = [_summary_columns(case_summary) for case_summary in summaries]
    return StagedSuite(suite, cases, columns, eval_file.text, read)


def _write(
    workspace: Workspace,
    stored: dict[str, str],
    spool: IO[bytes],
    suites: int,
    exact: bool,
    progress: Progress,
    share_the_writer: bool,
) -> None:
    """The second pass: the workspace's files, then the spooled suites, batch by batch."""
    files = list(stored.items())
    for start in range(0, len(files), FILES_PER_BATCH):
        with transaction.atomic():
            WorkspaceFile.objects.bulk_create(
                WorkspaceFile(workspace=workspace, path=path, text=text, base_text=text)
                for path, text in files[start : start + FILES_PER_BATCH]
            )
    written = 0
    progress(written, suites, "suites written")
    # SQLite has one writer, and a save waiting for it sleeps between its tries (up to 100 ms
    # apart): with no moment between two batches, the next batch would always take the lock
    # first, and the save would wait for the whole import. Only an import beside the site's
    # users (a .zip upload) pays for it; an operator's `import_evals` loads at full speed.
    sharing = share_the_writer and connection.vendor == "sqlite"
    pause = SQLITE_PAUSE if sharing else 0.0
    for batch in _batches(spool, SHARED_BATCH_TEXT if sharing else BATCH_TEXT):
        with transaction.atomic():
            still_importing(workspace)
            written += _store_batch(workspace, batch, exact)
        progress(written, suites, "suites written")
        time.sleep(pause)


@dataclass(frozen=True)
class BatchPart:
    """The cases `start` to `end` of a spooled suite, as one batch writes them: the batch of
    its first cases inserts the suite's row, the batch of its last ones settles it."""

    staged: StagedSuite
    start: int
    end: int

    @property
    def last(self) -> bool:
        return self.end == len(self.staged.cases)


def _spooled(spool: IO[bytes]) -> Iterator[StagedSuite]:
    spool.seek(0)
    while True:
        try:
            yield pickle.load(spool)  # noqa: S301 - the import's own spool
        except EOFError:
            return


def _batches(spool: IO[bytes], text_limit: int) -> Iterator[list[BatchPart]]:
    """The spooled suites, in order, a batch at a time: at most SUITES_PER_BATCH suites and
    `text_limit` characters of cases (one case at least)."""
    batch: list[BatchPart] = []
    size = 0
    for staged in _spooled(spool):
        if len(batch) == SUITES_PER_BATCH:
            yield batch
            batch, size = [], 0
        start = end = 0
        while True:
            while end < len(staged.cases) and (
                size == 0 or size + len(staged.cases[end][2]) <= text_limit
            ):
                size += len(staged.cases[end][2])
                end += 1
            if end == start < len(staged.cases):
                # Not one of its cases fits in this batch: the suite starts in the next one
                # (the batch holding its first cases inserts its row, and only that one).
                yield batch
                batch, size = [], 0
                continue
            batch.append(BatchPart(staged, start, end))
            if end == len(staged.cases):
                break
            yield batch
            batch, size, start = [], 0, end
    if batch:
        yield batch


def _store_batch(workspace: Workspace, batch: list[BatchPart], exact: bool) -> int:
    """Store a batch of suites and cases (and, when `exact`, the cases' summaries; else the
    suite page computes them); returns how many suites it finished. Each case's base is its
    document as read (docs/sync.md), and each suite is settled as its text once all its cases
    are in (repository/settled.py).

    Suites go in with one INSERT and cases with one `executemany`: a repository holds
    thousands of small eval files, and a query or a model instance per file or case would
    cost more than reading them. The texts go in last, with what is settled of each suite,
    which needs the cases' rows: SQLite writes a row again whole when any column changes.
    """
    new = [part.staged.suite for part in batch if part.start == 0]
    for suite in new:
        suite.workspace = workspace
    Suite.objects.bulk_create(new)
    rows: list[tuple[object, ...]] = []
    for part in batch:
        cases = part.staged.cases[part.start : part.end]
        summaries = part.staged.summaries[part.start : part.end]
        for (position, case_id, text), columns in zip(cases, summaries, strict=True):
            row: tuple[object, ...] = (part.staged.suite.pk, position, case_id, text, text)
            rows.append(row + columns if exact else row)
    insert_rows(Case, CASE_COLUMNS + (SUMMARY_COLUMNS if exact else ()), rows)
    done = [part.staged for part in batch if part.last]
    paths = {staged.suite.pk: staged.suite.path for staged in done}
    texts = {staged.suite.path: staged.text for staged in done if staged.text is not None}
    reads = {staged.suite.path: staged.read for staged in done if staged.read is not None}
    states = imported_states(workspace, paths, texts, reads)
    update_rows(
        Suite,
        SUITE_TEXT_COLUMNS,
        [
            (staged.text, staged.text, *states[staged.suite.pk], staged.suite.pk)
            for staged in done
            if staged.text is not None
        ],
    )
    return len(done)


def _summary_columns(summary: Summary) -> tuple[object, ...]:
    """The values of SUMMARY_COLUMNS for a case whose summary is `summary` (as set_summary)."""
    return (
        True,
        summary.input_turns,
        summary.role_markers,
        summary.reason,
        encode_json(list(summary.warnings)),
        summary.problem,
        encode_json(list(summary.lint)),
    )

"""The work of an export, a batch of cases at a time, in worker processes when it is large.

Formatting every case in both modes and writing it as YAML is nearly all of an export's time,
and it is plain Python: one process uses one core. A batch is a few hundred cases of
consecutive suites, as read from the database (their documents' JSON text); its result is the
files of its suites, written to temporary files that the export puts in place
(services/exporting.py), and its lines of `formatted.jsonl` (below). Workers are forked once
the formatter has everything it reads (files, configs, headers), so they never touch the
database.

A worker writes a batch's lines straight to their place in `formatted.jsonl` when the batches
before it are formatted already, so that their sizes give the place (`SharedLines`); nearly
always they are, as batches are handed out in order. Otherwise the lines go to a temporary
file, which the export copies to their place once it knows it.
"""

from __future__ import annotations

import gc
import json
import os
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_all_start_methods, get_context
from multiprocessing.sharedctypes import RawArray
from pathlib import Path
from typing import IO, Any

import orjson
from django.db import connections

from ..eval_files.json_text import decode_json
from ..eval_files.writing import case_text, eval_file_pieces
from ..formatting.engine import Mode
from ..models import Suite
from .case_reading import CHUNK_SIZE
from .export_files import (
    ExportFolder,
    TemporaryFile,
    temporary_bytes,
    write_at,
    write_temporary,
)
from .formatted_rows import formatted_rows
from .formatting import WorkspaceFormatter

# The cases of one batch, read with one query. In one process a batch is only the unit of
# reading. Worker processes take a batch at a time, and smaller batches let them end closer
# together (the last batch is the export's tail, and a core slowed by other work takes fewer):
# on two cores 200 was faster than 500, and smaller no faster.
BATCH_SIZE = CHUNK_SIZE
WORKER_BATCH_SIZE = 200
# Batches handed to the workers and not yet written, per worker: enough to keep each busy
# while the export writes, few enough that memory does not grow with the workspace.
AHEAD_PER_WORKER = 3
MAX_JOBS = 4


@dataclass(frozen=True)
class ExportWork:
    """What formatting any batch of one export needs."""

    formatter: WorkspaceFormatter
    suites: Sequence[Suite]
    folder: ExportFolder  # where the files go (each worker creates the folders it needs)
    modes: tuple[Mode, ...]
    toon: bool
    lines_target: Path  # formatted.jsonl: a worker leaves a batch's lines beside it


@dataclass
class SuiteSlice:
    """What a batch holds of one suite: its cases' count, and either its file, written, or,
    when the suite's cases span batches, each case written as its file writes it (none for a
    stored file)."""

    suite: int  # index in ExportWork.suites
    cases: int
    file: TemporaryFile | None = None
    case_texts: list[str] = field(default_factory=list)


@dataclass
class BatchResult:
    """A formatted batch: its `formatted.jsonl` lines, their warnings and its suite slices."""

    line_count: int = 0
    lines_size: int = 0  # in bytes
    # From a worker that wrote its lines before their place in formatted.jsonl was known: the
    # temporary file holding them (the kernel copies it to their place, rather than the lines
    # passing through a pipe and this process's memory).
    lines_file: str | None = None
    warnings: list[str] = field(default_factory=list)
    slices: list[SuiteSlice] = field(default_factory=list)
    stored_files: list[TemporaryFile] = field(default_factory=list)

    def discard(self) -> None:
        """Remove the temporary files of a batch that will not be written."""
        files = [
            self.lines_file,
            *(piece.file.path for piece in self.slices if piece.file),
            *(file.path for file in self.stored_files),
        ]
        for path in files:
            if path is not None:
                Path(path).unlink(missing_ok=True)


@dataclass
class Batch:
    """Cases of consecutive suites: for each suite, its index, the JSON text of its cases in
    the batch and whether they are all of its cases (`case_reading.document_batches`); and the
    batch's number among those of cases (0, 1, …). Or, as the first batch, no cases but the
    workspace's stored files, which it writes as they are."""

    cases: list[tuple[int, list[str], bool]]
    number: int = 0
    stored_files: bool = False


def format_batch(
    work: ExportWork, batch: Batch, write_line: Callable[[bytes], object]
) -> BatchResult:
    """Format the cases of `batch` and write them: each line of `formatted.jsonl` to
    `write_line` as it is made (in one process, straight to the file, so that a batch's
    lines, judge prompts and all, never sit in memory together; a worker gathers them as
    bytes), the file of each suite the batch holds whole, the text of each case of the
    others."""
    result = BatchResult()
    try:
        if batch.stored_files:
            for path, text in work.formatter.file_texts.items():
                result.stored_files.append(write_temporary(work.folder.target(path), [text]))
        for index, texts, whole in batch.cases:
            suite = work.suites[index]
            case_texts: list[str] = []
            for text in texts:
                document = decode_json(text)
                rows = formatted_rows(work.formatter, suite, document, work.modes, toon=work.toon)
                for row in rows:
                    mode = row["mode"]
                    result.warnings.extend(f"{suite.path} ({mode}): {w}" for w in row["warnings"])
                    line = json_line(row)
                    write_line(line)
                    result.line_count += 1
                    result.lines_size += len(line)
                if not suite.read_only:
                    case_texts.append(case_text(suite.file_format, document))
            piece = SuiteSlice(index, len(texts))
            if whole and not suite.read_only:
                target = work.folder.target(suite.path)
                piece.file = write_temporary(target, suite_pieces(suite, case_texts))
            else:
                piece.case_texts = case_texts
            result.slices.append(piece)
    except BaseException:
        result.discard()
        raise
    return result


def suite_pieces(suite: Suite, case_texts: Iterable[str]) -> Iterator[str]:
    """The text of `suite`'s file, in pieces, its cases written already (`case_text`)."""
    return eval_file_pieces(suite.file_format, suite.document, suite.cases_key or None, case_texts)


def json_line(row: dict[str, Any]) -> bytes:
    """A row of `formatted.jsonl` as one line of compact JSON, UTF-8."""
    try:
        return orjson.dumps(row, option=orjson.OPT_APPEND_NEWLINE)
    except TypeError:  # what only Python's writer takes: a number beyond 64 bits, a lone
        # surrogate, a key that is not a string (in a content mapping)
        text = json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n"
        return text.encode("utf-8", "surrogatepass")


def default_jobs() -> int:
    """Worker processes an export uses by default: one per core it may run on, at most 4."""
    affinity = getattr(os, "sched_getaffinity", None)  # Linux: the cores it may run on
    cores = len(affinity(0)) if affinity is not None else os.cpu_count() or 1
    return max(1, min(MAX_JOBS, cores))


class SharedLines:
    """`formatted.jsonl` as the workers write it: the size of each batch's lines, in memory
    the workers share, gives each batch its place in the file once every batch before it has
    its size. (Two processes writing their lines as they make them would queue on the file's
    lock at every line; a batch at once, they rarely meet.)"""

    def __init__(self, descriptor: int, most_batches: int) -> None:
        self.descriptor = descriptor  # open for writing, inherited by the forked workers
        self._sizes = RawArray("q", [-1] * most_batches)  # -1: not formatted yet

    def place(self, number: int, size: int) -> int | None:
        """Record that batch `number` has `size` bytes of lines; the offset of its lines in
        the file, or None while a batch before it has no size yet."""
        if number >= len(self._sizes):  # more batches than counted: cases added meanwhile
            return None
        self._sizes[number] = size
        sizes = self._sizes[:number]
        return None if -1 in sizes else sum(sizes)


def formatted_batches(
    work: ExportWork,
    batches: Iterable[Batch],
    *,
    jobs: int,
    parallel: bool,
    lines_out: IO[bytes],
    most_batches: int,
) -> Generator[BatchResult, None, None]:
    """The results of `batches`, in order. With `parallel` and more than one job, formatted
    by `jobs` forked worker processes, a few batches ahead, each batch's lines written to
    their place in `lines_out` or left in a file (`BatchResult.lines_file`); otherwise here,
    one by one, the lines written to `lines_out`. `most_batches`: how many batches of cases
    there are at most."""
    if not parallel or jobs < 2 or "fork" not in get_all_start_methods():  # Windows
        for batch in batches:
            yield format_batch(work, batch, lines_out.write)
        return
    lines_out.flush()  # the workers write to the file itself, not through this buffer
    shared = SharedLines(lines_out.fileno(), most_batches)
    with ProcessPoolExecutor(
        jobs, mp_context=get_context("fork"), initializer=_start_worker, initargs=(work, shared)
    ) as pool:
        # The workers are forked at the first task. They share this process's objects until
        # they write to them; a garbage collection in a worker would write to every one (and
        # copy all of its memory), so the objects are frozen out of collections there.
        gc.freeze()
        try:
            pool.submit(int)
        finally:
            gc.unfreeze()
        pending: deque[Future[BatchResult]] = deque()
        try:
            for batch in batches:
                pending.append(pool.submit(_format_in_worker, batch))
                if len(pending) >= jobs * AHEAD_PER_WORKER:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:  # the export stopped early: what the workers wrote for it is removed
            for future in pending:
                if not future.cancel() and future.exception() is None:
                    future.result().discard()


_worker_work: ExportWork | None = None
_worker_lines: SharedLines | None = None


def _start_worker(work: ExportWork, lines: SharedLines) -> None:
    """Run in each worker as it starts: keep the export's work and file of lines, and make
    sure the database connections inherited from the export are never used (the export
    still uses them)."""
    global _worker_work, _worker_lines
    _worker_work, _worker_lines = work, lines
    for connection in connections.all(initialized_only=True):
        connection.execute_wrappers.append(_refuse_queries)


def _refuse_queries(*args: object) -> None:
    raise RuntimeError("an export worker must not query the database")


def _format_in_worker(batch: Batch) -> BatchResult:
    work, shared = _worker_work, _worker_lines
    assert work is not None and shared is not None, "not started by _start_worker"
    if not batch.cases:
        return format_batch(work, batch, _no_line)
    lines: list[bytes] = []
    result = format_batch(work, batch, lines.append)
    try:
        offset = shared.place(batch.number, result.lines_size)
        if offset is not None:
            write_at(shared.descriptor, lines, offset)
            return result
        with temporary_bytes(work.lines_target) as (handle, path):
            handle.writelines(lines)
    except BaseException:  # the lines could not be written (a full disk): nor are the files
        result.discard()
        raise
    result.lines_file = path
    return result


def _no_line(line: bytes) -> None:
    raise AssertionError("a batch without cases has no lines")

"""The work of an export, a batch of cases at a time, in worker processes when it is large.

Formatting every case in both modes and writing it as YAML is nearly all of an export's time,
and it is plain Python: one process uses one core. A batch is a few hundred cases of
consecutive suites, as read from the database (their documents' JSON text); its result is the
files of its suites, written to temporary files that the export puts in place
(services/exporting.py), and its lines of `formatted.jsonl` (below). Workers are forked once
the formatter has everything it reads (files, configs, headers), so they never touch the
database.

A worker writes its batch's lines to `formatted.jsonl` itself, in the order of the batches: a
thread of its own waits for the batch's turn and appends them, while the worker formats its
next batch. Sent back to the export through a pipe, a few megabytes a batch, they cost the
export's own process 0.4 to 0.8 s of kernel time in the text-heavy export, on a core the
workers need; a temporary file per batch, copied in, would make the disk write them twice.
"""

from __future__ import annotations

import errno
import gc
import json
import os
import queue
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_all_start_methods, get_context
from multiprocessing.synchronize import Condition
from pathlib import Path
from typing import IO, Any

import orjson
from django.db import connections

from ...eval_files.json_text import decode_json
from ...formatting.profile_2025.formatter import Mode
from ...models import Suite
from ..cases.reading import CHUNK_SIZE
from ..profiles.formatted_rows import formatted_rows
from ..profiles.workspace_formatter import WorkspaceFormatter
from .files import ExportFolder, TemporaryFile, write_temporary
from .suite_texts import is_untouched, rewritten_bytes

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
    tokens: bool = False  # each row's token counts (`export_evals --tokens`)


@dataclass
class SuiteSlice:
    """What a batch holds of one suite: its cases' count, and either its file, written, or,
    when the suite's cases span batches, the JSON text of each case (none for a stored file),
    for the export to write the file from."""

    suite: int  # index in ExportWork.suites
    cases: int
    file: TemporaryFile | None = None
    case_texts: list[str] = field(default_factory=list)  # JSON, as read from the database


@dataclass
class BatchResult:
    """A formatted batch: how many `formatted.jsonl` lines it wrote, their warnings and its
    suite slices."""

    line_count: int = 0
    warnings: list[str] = field(default_factory=list)
    slices: list[SuiteSlice] = field(default_factory=list)
    stored_files: list[TemporaryFile] = field(default_factory=list)

    def discard(self) -> None:
        """Remove the temporary files of a batch that will not be written."""
        files = [
            *(piece.file.path for piece in self.slices if piece.file),
            *(file.path for file in self.stored_files),
        ]
        for path in files:
            Path(path).unlink(missing_ok=True)


@dataclass
class Batch:
    """Cases of consecutive suites: for each suite, its index, the JSON text of its cases in
    the batch and whether they are all of its cases (`case_reading.document_batches`), and
    the text as read of each suite it holds whole (by index; none for a suite made in the
    app), to write its file from. Or, as the first batch, no cases but the workspace's
    stored files, which it writes as they are."""

    cases: list[tuple[int, list[str], bool]]
    stored_files: bool = False
    source_texts: dict[int, bytes] = field(default_factory=dict)  # UTF-8


def format_batch(
    work: ExportWork, batch: Batch, write_line: Callable[[bytes], object]
) -> BatchResult:
    """Format the cases of `batch` and write them: each line of `formatted.jsonl` to
    `write_line` as it is made (in one process straight to the file, so that a batch's
    lines, judge prompts and all, never sit in memory together; a worker's batch is smaller),
    the file of each suite the batch holds whole, the text of each case of the others."""
    result = BatchResult()
    try:
        if batch.stored_files:
            for path, text in work.formatter.file_texts.items():
                target = work.folder.target(path)
                result.stored_files.append(write_temporary(target, text.encode("utf-8")))
        for index, texts, whole in batch.cases:
            suite = work.suites[index]
            writes_file = whole and not suite.read_only
            source_text = batch.source_texts.get(index)
            # An untouched suite's file is its text as read: its cases need not be kept.
            untouched = writes_file and source_text is not None and is_untouched(suite, texts)
            keep_documents = writes_file and not untouched
            documents: list[dict[Any, Any]] = []
            for text in texts:
                document = decode_json(text)
                if keep_documents:
                    documents.append(document)
                rows = formatted_rows(
                    work.formatter, suite, document, work.modes, toon=work.toon, tokens=work.tokens
                )
                for row in rows:
                    mode = row["mode"]
                    result.warnings.extend(f"{suite.path} ({mode}): {w}" for w in row["warnings"])
                    line = json_line(row)
                    write_line(line)
                    result.line_count += 1
            piece = SuiteSlice(index, len(texts))
            if writes_file:
                target = work.folder.target(suite.path)
                piece.file = write_temporary(
                    target,
                    source_text
                    if untouched and source_text is not None
                    else rewritten_bytes(suite, source_text, documents),
                )
            elif not suite.read_only:
                piece.case_texts = texts
            result.slices.append(piece)
    except BaseException:
        result.discard()
        raise
    return result


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


def formatted_batches(
    work: ExportWork,
    batches: Iterable[Batch],
    *,
    jobs: int,
    parallel: bool,
    lines_out: IO[bytes],
) -> Generator[BatchResult, None, None]:
    """The results of `batches`, in order, their lines written to `lines_out` in order. With
    `parallel` and more than one job, formatted by `jobs` forked worker processes, a few
    batches ahead, which write the lines themselves (`LineTurns`); otherwise here, one by
    one. Once the last result is taken, every line is written."""
    if not parallel or jobs < 2 or "fork" not in get_all_start_methods():  # Windows
        for batch in batches:
            yield format_batch(work, batch, lines_out.write)
        return
    context = get_context("fork")
    lines_out.flush()  # the workers append after what is written
    turns = LineTurns(
        lines_out.fileno(), context.Value("q", 0), context.Condition(), context.Value("i", 0)
    )
    with ProcessPoolExecutor(
        jobs, mp_context=context, initializer=_start_worker, initargs=(work, turns)
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
            submitted = 0
            for batch in batches:
                pending.append(pool.submit(_format_in_worker, batch, submitted))
                submitted += 1
                if len(pending) >= jobs * AHEAD_PER_WORKER:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
            # Waited for in a worker: if one dies before its lines are written, the pool
            # breaks and this raises, rather than waiting for ever.
            failure = pool.submit(_lines_written, submitted).result()
            if failure:
                raise OSError(failure, f"writing formatted.jsonl: {os.strerror(failure)}")
        finally:  # the export stopped early: what the workers wrote for it is removed
            for future in pending:
                if not future.cancel() and future.exception() is None:
                    future.result().discard()


@dataclass(frozen=True)
class LineTurns:
    """What the workers share to append their batches' lines to `formatted.jsonl` in order:
    its descriptor (inherited, so they share its offset), the number of the batch whose
    lines go next, and the condition they wait on for it. `failure` is the error number of
    a write that failed (0: none); the turns go on after it, so that no one waits for ever."""

    descriptor: int
    turn: Any  # multiprocessing's Value("q")
    turned: Condition
    failure: Any  # multiprocessing's Value("i")

    def write_in_turn(self, number: int, lines: list[bytes]) -> None:
        """Append `lines` once every batch before `number` has appended its own."""
        with self.turned:
            self.turned.wait_for(lambda: self.turn.value == number)
        if not self.failure.value:  # after a failed write the file is abandoned anyway
            try:
                write_all(self.descriptor, b"".join(lines))
            except OSError as error:
                self.failure.value = error.errno or errno.EIO
        with self.turned:
            self.turn.value = number + 1
            self.turned.notify_all()

    def written(self, count: int) -> int:
        """Wait until `count` batches have appended their lines; the failure, if any."""
        with self.turned:
            self.turned.wait_for(lambda: self.turn.value >= count)
        return int(self.failure.value)


def write_all(descriptor: int, data: bytes) -> None:
    """Write all of `data` to `descriptor` (a write may take only part of it)."""
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]


_worker_work: ExportWork | None = None
_worker_turns: LineTurns | None = None
_worker_lines: queue.SimpleQueue[tuple[int, list[bytes]]] | None = None  # to its writer


def _start_worker(work: ExportWork, turns: LineTurns) -> None:
    """Run in each worker as it starts: keep the export's work, start the thread that writes
    its batches' lines in their turn, and make sure the database connections inherited from
    the export are never used (the export still uses them)."""
    global _worker_work, _worker_turns, _worker_lines
    _worker_work, _worker_turns, _worker_lines = work, turns, queue.SimpleQueue()
    threading.Thread(target=_write_lines, args=(turns, _worker_lines), daemon=True).start()
    for connection in connections.all(initialized_only=True):
        connection.execute_wrappers.append(_refuse_queries)


def _refuse_queries(*args: object) -> None:
    raise RuntimeError("an export worker must not query the database")


def _format_in_worker(batch: Batch, number: int) -> BatchResult:
    work, writer = _worker_work, _worker_lines
    assert work is not None and writer is not None, "not started by _start_worker"
    lines: list[bytes] = []
    try:
        return format_batch(work, batch, lines.append)
    finally:  # even a batch that failed takes its turn: the batches after it wait for it
        writer.put((number, lines))


def _write_lines(turns: LineTurns, batches: queue.SimpleQueue[tuple[int, list[bytes]]]) -> None:
    """A worker's writer: appends each batch's lines in its turn, while the worker formats."""
    while True:
        number, lines = batches.get()
        turns.write_in_turn(number, lines)


def _lines_written(count: int) -> int:
    assert _worker_turns is not None, "not started by _start_worker"
    return _worker_turns.written(count)

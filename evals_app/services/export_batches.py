"""The work of an export, a batch of cases at a time, in worker processes when it is large.

Formatting every case in both modes and writing it as YAML is nearly all of an export's time,
and it is plain Python: one process uses one core. A batch is a few hundred cases of
consecutive suites, as read from the database (their documents' JSON text); its result is the
batch's lines of `formatted.jsonl` and each case written as its file writes it. Workers are
forked once the formatter has everything it reads (files, configs, headers), so they never
touch the database; the export writes every file itself, in order (services/exporting.py).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import orjson
from django.db import connections

from ..eval_files.json_text import decode_json
from ..eval_files.writing import case_text
from ..formatting.engine import Mode
from ..models import Suite
from .formatted_rows import formatted_rows
from .formatting import WorkspaceFormatter

# The cases of one batch, read with one query; a worker formats one batch at a time.
BATCH_SIZE = 500
# Batches handed to the workers and not yet written, per worker: enough to keep each busy
# while the export writes, few enough that memory does not grow with the workspace.
AHEAD_PER_WORKER = 2
MAX_JOBS = 4
LINES_NAME = "formatted.jsonl"


@dataclass(frozen=True)
class ExportWork:
    """What formatting any batch of one export needs."""

    formatter: WorkspaceFormatter
    suites: Sequence[Suite]
    modes: tuple[Mode, ...]
    toon: bool
    folder: Path  # where a worker leaves a batch's lines for the export to copy


@dataclass
class SuiteSlice:
    """What a batch holds of one suite: its cases written as its file writes them (none for a
    suite whose file is a stored file), and how many cases."""

    suite: int  # index in ExportWork.suites
    cases: int
    case_texts: list[str]


@dataclass
class BatchResult:
    """A formatted batch: its `formatted.jsonl` lines, their warnings and its suite slices."""

    lines: bytes = b""
    line_count: int = 0
    # From a worker: the temporary file holding `lines` instead (the kernel copies it into
    # formatted.jsonl, rather than it passing through a pipe and this process's memory).
    lines_file: str | None = None
    warnings: list[str] = field(default_factory=list)
    slices: list[SuiteSlice] = field(default_factory=list)


Batch = list[tuple[int, list[str]]]  # (suite index, the JSON text of its cases in the batch)


def format_batch(work: ExportWork, batch: Batch) -> BatchResult:
    """Format and write the cases of `batch`."""
    result = BatchResult()
    lines: list[bytes] = []
    for index, texts in batch:
        suite = work.suites[index]
        written: list[str] = []
        for text in texts:
            document = decode_json(text)
            for row in formatted_rows(work.formatter, suite, document, work.modes, toon=work.toon):
                mode = row["mode"]
                result.warnings.extend(f"{suite.path} ({mode}): {item}" for item in row["warnings"])
                lines.append(json_line(row))
            if not suite.read_only:
                written.append(case_text(suite.file_format, document))
        result.slices.append(SuiteSlice(index, len(texts), written))
    result.lines = b"".join(lines)
    result.line_count = len(lines)
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
    return max(1, min(MAX_JOBS, len(os.sched_getaffinity(0))))


def formatted_batches(
    work: ExportWork, batches: Iterable[Batch], *, jobs: int, parallel: bool
) -> Iterator[BatchResult]:
    """The results of `batches`, in order. With `parallel` and more than one job, formatted
    by `jobs` forked worker processes, a few batches ahead; otherwise here, one by one."""
    if not parallel or jobs < 2:
        for batch in batches:
            yield format_batch(work, batch)
        return
    context = get_context("fork")
    with ProcessPoolExecutor(
        jobs, mp_context=context, initializer=_start_worker, initargs=(work,)
    ) as pool:
        pending: deque[Future[BatchResult]] = deque()
        try:
            for batch in batches:
                pending.append(pool.submit(_format_in_worker, batch))
                if len(pending) >= jobs * AHEAD_PER_WORKER:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()


_worker_work: ExportWork | None = None


def _start_worker(work: ExportWork) -> None:
    """Run in each worker as it starts: keep the export's work, and make sure the database
    connections inherited from the export are never used (the export still uses them)."""
    global _worker_work
    _worker_work = work
    for connection in connections.all(initialized_only=True):
        connection.execute_wrappers.append(_refuse_queries)


def _refuse_queries(*args: object) -> None:
    raise RuntimeError("an export worker must not query the database")


def _format_in_worker(batch: Batch) -> BatchResult:
    assert _worker_work is not None, "not started by _start_worker"
    result = format_batch(_worker_work, batch)
    descriptor, result.lines_file = tempfile.mkstemp(
        dir=_worker_work.folder, prefix=f".{LINES_NAME}.", suffix=".tmp"
    )
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(result.lines)
    result.lines = b""
    return result

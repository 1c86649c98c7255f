"""Exporting workspaces: eval YAML, stored files, config and `formatted.jsonl`, written atomically.

Cases are read in chunks (case_reading) and written as they come, so memory does not grow with
the number of cases.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..eval_files.writing import eval_file_chunks
from ..formatting.engine import Mode
from ..models import ReviewStatus, Suite, Workspace
from .case_reading import StoredCase, stored_cases, suites_with_cases
from .formatted_rows import formatted_rows
from .formatting import WorkspaceFormatter

FORMATTED_FILE = "formatted.jsonl"
# `.<target name>.<8 random characters>.tmp`, as tempfile.mkstemp names them in _atomic_file.
TEMPORARY_NAME = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp")


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
    approved_only: bool = False,
    on_case: Callable[[], object] = lambda: None,
) -> ExportSummary:
    """Write `workspace` under `out/<slug>/`; every file is replaced atomically.

    Each suite is written in the form and spelling it came in (docs/formats.md); CSV files
    of cases are stored files, written as they are. With `approved_only`, only cases whose
    review is approved are written (and formatted).
    """
    folder = out / workspace.slug
    _remove_stale_temporary_files(folder)
    summary = ExportSummary(workspace=workspace, folder=folder)
    formatter = WorkspaceFormatter(workspace)
    targets = _ExportFolder(folder)
    with _Finisher() as finisher:
        for path, text in formatter.file_texts.items():
            with _atomic_file(targets.target(path), finisher) as handle:
                handle.write(text)
            summary.files += 1
        case_filter: dict[str, Any] = {"status": ReviewStatus.APPROVED} if approved_only else {}
        with _atomic_file(targets.target(FORMATTED_FILE), finisher) as jsonl:
            suites = suites_with_cases(workspace.suites.order_by("path"), **case_filter)
            for suite, cases in suites:
                summary.suites += 1
                documents = _documents(formatter, suite, cases, modes, toon, jsonl, summary)
                if suite.read_only:
                    for _ in documents:  # formatted, but the file is a stored file
                        on_case()
                    continue
                with _atomic_file(targets.target(suite.path), finisher) as yaml_out:
                    for chunk in suite_chunks(suite, _counted(documents, on_case)):
                        yaml_out.write(chunk)
    return summary


def suite_chunks(suite: Suite, documents: Iterable[dict[Any, Any]]) -> Iterator[str]:
    """The text of the suite's file holding `documents`, in its form and spelling, in pieces."""
    return eval_file_chunks(suite.file_format, suite.document, suite.cases_key or None, documents)


def exported_texts(
    workspace: Workspace,
    documents_of: Callable[[Suite], Iterable[dict[Any, Any]] | None] | None = None,
) -> Iterator[tuple[str, str]]:
    """(path, text) of every file an export writes for the workspace's files and suites
    (not `formatted.jsonl`); `documents_of` gives a suite's case documents (default: as
    stored), or None to leave the suite out."""
    yield from sorted(workspace.file_texts().items())
    for suite in workspace.suites.order_by("path"):
        if suite.read_only:  # its file is a stored file, yielded above
            continue
        documents = (
            documents_of(suite)
            if documents_of is not None
            else (case.document for case in stored_cases(suite.cases.all()))
        )
        if documents is not None:
            yield suite.path, "".join(suite_chunks(suite, documents))


def _counted(
    documents: Iterator[dict[Any, Any]], on_case: Callable[[], object]
) -> Iterator[dict[Any, Any]]:
    for document in documents:
        yield document
        on_case()


def _documents(
    formatter: WorkspaceFormatter,
    suite: Suite,
    cases: Iterator[StoredCase],
    modes: tuple[Mode, ...],
    toon: bool,
    jsonl: IO[str],
    summary: ExportSummary,
) -> Iterator[dict[Any, Any]]:
    """The suite's case documents in order, each formatted into `jsonl` on the way."""
    for case in cases:
        summary.cases += 1
        for line in _formatted_lines(formatter, suite, case, modes, toon, summary):
            jsonl.write(line)
            summary.formatted_lines += 1
        yield case.document


def _formatted_lines(
    formatter: WorkspaceFormatter,
    suite: Suite,
    case: StoredCase,
    modes: tuple[Mode, ...],
    toon: bool,
    summary: ExportSummary,
) -> Iterator[str]:
    for row in formatted_rows(formatter, suite, case.document, modes, toon=toon):
        mode = row["mode"]
        summary.warnings.extend(f"{suite.path} ({mode}): {warning}" for warning in row["warnings"])
        yield json.dumps(row, ensure_ascii=False) + "\n"


class _ExportFolder:
    """Where each stored path is written under the export folder, refusing any that would lead
    outside it (`..`, or a symbolic link to elsewhere).

    A repository holds thousands of files in a few hundred folders: each folder is resolved,
    checked and created once, so a file costs one `lstat` of its own, not one per folder of its
    path (which, with `mkdir` on every write, took a good part of a large export).
    """

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._root = folder.resolve()
        self._parents: dict[str, Path] = {}

    def target(self, relative: str) -> Path:
        """The path to write `relative` to; its folder exists afterwards."""
        folder_part, _, name = relative.rpartition("/")
        parent = self._parents.get(folder_part)
        if parent is None:
            parent = self._inside((self._folder / folder_part).resolve(), relative)
            parent.mkdir(parents=True, exist_ok=True)
            self._parents[folder_part] = parent
        target = parent / name
        if name in ("", ".", "..") or target.is_symlink():
            return self._inside(target.resolve(), relative)
        return target

    def _inside(self, path: Path, relative: str) -> Path:
        if not path.is_relative_to(self._root):
            raise ValueError(f"refusing to write outside the export folder: {relative!r}")
        return path


def _remove_stale_temporary_files(folder: Path) -> None:
    """Delete the temporary files of an earlier export that was killed (SIGKILL, power loss:
    its own clean-up never ran). Only names that `_atomic_file` makes are touched."""
    if not folder.is_dir():
        return
    for path in folder.rglob(".*.tmp"):
        if TEMPORARY_NAME.fullmatch(path.name) and path.is_file() and not path.is_symlink():
            path.unlink(missing_ok=True)


class _Finisher:
    """Syncs written temporary files to disk and renames them over their targets, a few at a
    time beside the export's own work.

    Each file is still synced before it replaces its target, so a crash at any moment leaves
    every file either as it was or complete. But one `fsync` after another costs milliseconds
    each, which for a repository of thousands of eval files is most of the export; issued
    together, the file system commits them in a few journal writes. Leaving the `with` block
    waits for every file and raises the first error.
    """

    WORKERS = 8
    IN_FLIGHT = 64  # files handed over and not finished yet (each holds a file descriptor)

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(self.WORKERS, thread_name_prefix="export-sync")
        self._pending: deque[Future[None]] = deque()

    def __enter__(self) -> _Finisher:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        first: BaseException | None = None
        while self._pending:
            try:
                self._pending.popleft().result()
            except BaseException as error:  # every file is finished or removed, then raised
                first = first or error
        self._pool.shutdown()
        if first is not None and kind is None:
            raise first

    def finish(self, descriptor: int, temporary: str, target: Path) -> None:
        """Sync the file open at `descriptor` (closed afterwards), then rename `temporary`
        over `target`; the temporary file is removed if either fails."""
        try:
            future = self._pool.submit(_sync_and_rename, descriptor, temporary, target)
        except BaseException:
            os.close(descriptor)
            Path(temporary).unlink(missing_ok=True)
            raise
        self._pending.append(future)
        while len(self._pending) > self.IN_FLIGHT:
            self._pending.popleft().result()


def _sync_and_rename(descriptor: int, temporary: str, target: Path) -> None:
    try:
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@contextmanager
def _atomic_file(target: Path, finisher: _Finisher | None = None) -> Iterator[IO[str]]:
    """Write to a temporary file beside `target` (whose folder exists), then rename it over
    `target` in one step, after syncing it to disk (with a `finisher`: by it, a little later)."""
    descriptor, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        # mkstemp creates the file private (0600); an exported file gets the usual permissions.
        os.chmod(temporary, 0o666 & ~_current_umask())
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as handle:
            yield handle
            handle.flush()
            if finisher is None:
                os.fsync(handle.fileno())
            else:
                kept = os.dup(handle.fileno())
        if finisher is None:
            os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    if finisher is not None:
        finisher.finish(kept, temporary, target)


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask

"""Exporting workspaces: eval YAML, stored files, config and `formatted.jsonl`, written atomically.

Cases are read in chunks (case_reading) and written as they come, so memory does not grow with
the number of cases.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from django.db.models import QuerySet

from ..eval_files.case_parts import split_case
from ..eval_files.writing import eval_file_chunks
from ..formatting.engine import Mode
from ..formatting.toon import encode_turns
from ..models import Case, ReviewStatus, Suite, Workspace
from .case_reading import StoredCase, stored_cases
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
    for path, text in formatter.file_texts.items():
        _write_text(folder, path, text)
        summary.files += 1
    with _atomic_file(folder / FORMATTED_FILE) as jsonl:
        for suite in workspace.suites.order_by("path"):
            summary.suites += 1
            documents = _documents(formatter, suite, approved_only, modes, toon, jsonl, summary)
            if suite.read_only:
                for _ in documents:  # formatted, but the file is a stored file
                    on_case()
                continue
            with _atomic_file(_inside(folder, suite.path)) as yaml_out:
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
    approved_only: bool,
    modes: tuple[Mode, ...],
    toon: bool,
    jsonl: IO[str],
    summary: ExportSummary,
) -> Iterator[dict[Any, Any]]:
    """The suite's case documents in order, each formatted into `jsonl` on the way."""
    for case in stored_cases(_cases_of(suite, approved_only)):
        summary.cases += 1
        for line in _formatted_lines(formatter, suite, case, modes, toon, summary):
            jsonl.write(line)
            summary.formatted_lines += 1
        yield case.document


def _cases_of(suite: Suite, approved_only: bool) -> QuerySet[Case]:
    cases = suite.cases.all()
    return cases.filter(status=ReviewStatus.APPROVED) if approved_only else cases


def _formatted_lines(
    formatter: WorkspaceFormatter,
    suite: Suite,
    case: StoredCase,
    modes: tuple[Mode, ...],
    toon: bool,
    summary: ExportSummary,
) -> Iterator[str]:
    parts = split_case(case.document)
    for mode in modes:
        formatted = formatter.format_parts(parts, suite, mode)
        record: dict[str, Any] = {
            "file": suite.path,
            "id": parts.case_id,
            "mode": mode,
            "question": formatted.question,
            "guidelines": formatted.guidelines,
            "chat_prompt": formatted.chat_prompt,
            "evaluator_prompt": formatted.evaluator_prompt(),
            "role_markers": formatted.role_markers,
            "reason": formatted.reason,
            "warnings": [warning.message for warning in formatted.warnings],
            "profile": suite.profile,
            "system_message": None,
        }
        if toon:
            record["question_toon"] = encode_turns(formatted.turns)
        summary.warnings.extend(
            f"{suite.path} ({mode}): {warning.message}" for warning in formatted.warnings
        )
        yield json.dumps(record, ensure_ascii=False) + "\n"


def _inside(folder: Path, relative: str) -> Path:
    """`folder/relative`, refusing any stored path that would lead outside `folder`."""
    target = (folder / relative).resolve()
    if not target.is_relative_to(folder.resolve()):
        raise ValueError(f"refusing to write outside the export folder: {relative!r}")
    return target


def _write_text(folder: Path, relative: str, text: str) -> None:
    with _atomic_file(_inside(folder, relative)) as handle:
        handle.write(text)


def _remove_stale_temporary_files(folder: Path) -> None:
    """Delete the temporary files of an earlier export that was killed (SIGKILL, power loss:
    its own clean-up never ran). Only names that `_atomic_file` makes are touched."""
    if not folder.is_dir():
        return
    for path in folder.rglob(".*.tmp"):
        if TEMPORARY_NAME.fullmatch(path.name) and path.is_file() and not path.is_symlink():
            path.unlink(missing_ok=True)


@contextmanager
def _atomic_file(target: Path) -> Iterator[IO[str]]:
    """Write to a temporary file beside `target`, then rename it over `target` in one step."""
    target.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        # mkstemp creates the file private (0600); an exported file gets the usual permissions.
        os.chmod(temporary, 0o666 & ~_current_umask())
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask

"""Importing tests from other tools into a workspace's suite (docs/imports.md): the files are read
and mapped by the pure `other_tools` package; this writes the tests, all or nothing, into a
new suite file (its text, with its comments, is what the file is written from) or at the end
of an existing suite of today's format.

The command, the browser and the API come through here (`import_tests`), the last two as a job.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from django.contrib.auth.models import User
from django.db import transaction

from ...eval_files.errors import EvalFileError
from ...eval_files.faithful_writing import documents_digest
from ...eval_files.paths import PathError, check_path
from ...eval_files.reading import read_eval_file
from ...models import ActivityRecord, Case, Suite, Workspace
from ...other_tools.base import ImportWarning, SourceFiles
from ...other_tools.conversion import Conversion, convert
from ...other_tools.registry import DATA_SUFFIXES
from ...other_tools.suite_text import suite_file
from ..cases.positions import end_positions, spread_positions
from ..cases.summaries import refresh_later, set_summary, summary_of
from ..jobs.progress import Progress, no_progress
from ..profiles import profile_named
from ..profiles.workspace_formatter import WorkspaceFormatter
from ..workspaces.activity import record_activity
from ..workspaces.paths import WorkspacePathError, check_path_free, clean_eval_path
from .zip_extraction import ZipLimits, ZipRefused, extract_zip

TODAY = "agentv-2026"
DEFAULT_SUITE = "evals/imported.eval.yaml"
# Up to this many tests, their summaries are computed as they are written (as a save does);
# beyond, the worker computes them (services/cases/summaries.py).
SUMMARIES_INLINE = 500
MAX_FILE_BYTES = 64 * 2**20


class TestsImportRefused(Exception):
    """Nothing was imported: the files cannot be read, or the suite cannot take the tests."""

    __test__ = False

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class TestsImported:
    """What an import wrote: the suite, whether it is new, and the conversion it wrote."""

    __test__ = False

    suite: Suite
    created: bool
    conversion: Conversion


def files_from_paths(paths: Sequence[Path]) -> SourceFiles:
    """The files of `paths` (files, or folders read whole) by their path relative to what was
    given: a folder's files under it, a file by its name; with several paths given, each
    under its own name, so that two folders' files of one name stay apart."""
    texts: dict[str, str] = {}
    several = len(paths) > 1
    for given in paths:
        if not given.exists():
            raise TestsImportRefused(f"{given}: no such file or folder")
        found = [given] if given.is_file() else sorted(p for p in given.rglob("*") if p.is_file())
        for path in found:
            if given.is_dir() and ".git" in path.relative_to(given).parts:
                continue
            relative = path.name if given.is_file() else path.relative_to(given).as_posix()
            key = f"{given.name}/{relative}" if several and given.is_dir() else relative
            if key in texts:
                raise TestsImportRefused(f"{path}: a second file named {key}")
            texts[key] = _decoded(path, key) if path.suffix in _SUFFIXES else ""
    return SourceFiles(texts)


_SUFFIXES = frozenset({*DATA_SUFFIXES, ".txt", ".md", ".json"})


def files_from_uploads(uploads: Sequence[tuple[str, IO[bytes]]], limits: ZipLimits) -> SourceFiles:
    """Uploaded files by name; a .zip is unpacked safely (zip_extraction.py) and its files
    come in at their paths in it."""
    texts: dict[str, str] = {}
    for name, upload in uploads:
        if name.lower().endswith(".zip"):
            with tempfile.TemporaryDirectory(prefix="agentv-tests-") as folder:
                try:
                    root = extract_zip(upload, Path(folder), limits)
                except ZipRefused as refusal:
                    raise TestsImportRefused(f"{name}: {refusal}") from None
                for path in sorted(Path(root).rglob("*")):
                    if path.is_file():
                        relative = path.relative_to(root).as_posix()
                        texts[relative] = (
                            _decoded(path, relative) if path.suffix in _SUFFIXES else ""
                        )
            continue
        try:
            key = check_path(name.replace("\\", "/").split("/")[-1])
        except PathError as error:
            raise TestsImportRefused(f"{name}: {error.message}") from None
        data = upload.read(MAX_FILE_BYTES + 1)
        texts[key] = _text(data, key)
    return SourceFiles(texts)


def _decoded(path: Path, shown: str) -> str:
    if path.stat().st_size > MAX_FILE_BYTES:
        raise TestsImportRefused(f"{shown}: larger than the limit of {MAX_FILE_BYTES // 2**20} MiB")
    return _text(path.read_bytes(), shown)


def _text(data: bytes, shown: str) -> str:
    if len(data) > MAX_FILE_BYTES:
        raise TestsImportRefused(f"{shown}: larger than the limit of {MAX_FILE_BYTES // 2**20} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise TestsImportRefused(f"{shown}:{line}: not UTF-8 text") from None


def preview_tests(
    workspace: Workspace,
    files: SourceFiles,
    suite_path: str,
    *,
    forced: str | None = None,
    turns: Mapping[str, Sequence[int]] | None = None,
) -> Conversion:
    """What importing `files` into the suite at `suite_path` would make; writes nothing."""
    suite = _existing_suite(workspace, clean_suite_path(suite_path))
    taken = list(suite.cases.values_list("case_id", flat=True)) if suite else []
    return _converted(files, forced, turns, taken)


def import_tests(
    workspace: Workspace,
    files: SourceFiles,
    suite_path: str,
    *,
    forced: str | None = None,
    turns: Mapping[str, Sequence[int]] | None = None,
    actor: User | None = None,
    progress: Progress = no_progress,
) -> TestsImported:
    """Map `files` into AgentV tests and write them to the suite at `suite_path` (a new file,
    or the end of an existing suite of today's format), in one transaction. Raises
    TestsImportRefused, having written nothing."""
    path = clean_suite_path(suite_path)
    progress(0, 0, "files read")
    with transaction.atomic():
        locked = Workspace.objects.select_for_update().get(pk=workspace.pk)
        suite = _existing_suite(locked, path)
        if suite is not None:
            _check_takes_tests(suite)
        taken = list(suite.cases.values_list("case_id", flat=True)) if suite else []
        conversion = _converted(files, forced, turns, taken)
        if suite is not None:
            _note_other_prompts(suite, conversion)
        tests = conversion.tests
        progress(0, len(tests), "tests written")
        if suite is None:
            suite = _new_suite(locked, path, conversion)
            positions = spread_positions(len(tests))
            created = True
        else:
            positions = end_positions(suite.cases.all(), len(tests))
            created = False
        rows = [
            Case(suite=suite, position=position, case_id=str(test["id"]), document=test)
            for position, test in zip(positions, tests, strict=True)
        ]
        if len(rows) <= SUMMARIES_INLINE:
            formatter = WorkspaceFormatter(locked)
            for row in rows:
                set_summary(row, summary_of(formatter, suite, row), suite.summary_generation)
        Case.objects.bulk_create(rows, batch_size=1000)
        if len(rows) > SUMMARIES_INLINE:
            refresh_later(locked.pk)
        formats = sorted({result.format for result in conversion.files})
        detail = f"{len(rows)} test{'s' * (len(rows) != 1)} from {', '.join(formats)}"
        action = ActivityRecord.Action.SUITE_IMPORTED
        record_activity(locked, actor, action, suite.path, detail, suite=suite)
        progress(len(tests), len(tests), "tests written")
    return TestsImported(suite, created, conversion)


def _converted(
    files: SourceFiles,
    forced: str | None,
    turns: Mapping[str, Sequence[int]] | None,
    taken: list[str],
) -> Conversion:
    try:
        return convert(files, forced=forced, turns=turns, taken_ids=taken)
    except EvalFileError as error:  # SourceError, or the strict YAML reader's refusal
        raise TestsImportRefused(str(error)) from None


def clean_suite_path(raw: str) -> str:
    """The suite file's path as stored, or TestsImportRefused saying what is wrong."""
    try:
        return clean_eval_path(raw)
    except WorkspacePathError as error:
        raise TestsImportRefused(f"{raw or 'the suite file'}: {error.message}") from None


def _existing_suite(workspace: Workspace, path: str) -> Suite | None:
    return workspace.suites.filter(path=path).first()


def _check_takes_tests(suite: Suite) -> None:
    if suite.read_only:
        raise TestsImportRefused(f"{suite.path} is read-only (a file of cases AgentV reads as is)")
    if suite.profile != TODAY or suite.cases_key != "tests":
        raise TestsImportRefused(
            f"{suite.path} is written in an older AgentV format: choose a suite of today's "
            "format (`tests` with `prompts`) or a new file"
        )


def _note_other_prompts(suite: Suite, conversion: Conversion) -> None:
    """Tests added to an existing suite run through its prompts: say so when their source
    had others (a promptfoo config)."""
    theirs = conversion.header.get("prompts")
    if theirs is not None and theirs != suite.document.get("prompts"):
        message = f"its prompts differ from {suite.path}'s, whose prompts its tests now run through"
        source = next(result.path for result in conversion.files if result.format == "promptfoo")
        conversion.warnings.append(ImportWarning(source, "", "prompts", message))


def _new_suite(workspace: Workspace, path: str, conversion: Conversion) -> Suite:
    """The new suite file holding the tests; with its own text when it keeps something aside
    (the comments), which it is then read as and written from; it was made here, so it has
    no base (docs/sync.md)."""
    try:
        check_path_free(workspace, path)
    except WorkspacePathError as error:
        raise TestsImportRefused(f"{path}: {error.message}") from None
    new = suite_file(conversion)
    digest = ""
    if new.text is not None:
        contents = read_eval_file(new.text)
        if contents.cases != conversion.tests:  # the comments changed nothing it says
            raise TestsImportRefused(f"{path}: the written file does not read back as its tests")
        digest = documents_digest(contents.header, contents.cases)
        header = contents.header
    else:
        header = new.header
    return Suite.objects.create(
        workspace=workspace,
        path=path,
        document=header,
        cases_key="tests",
        file_format="yaml",
        profile=profile_named(TODAY).name,
        source_text=new.text,
        source_digest=digest,
    )


__all__ = [
    "DEFAULT_SUITE",
    "TestsImportRefused",
    "TestsImported",
    "clean_suite_path",
    "files_from_paths",
    "files_from_uploads",
    "import_tests",
    "preview_tests",
]

"""The engine: the files of an import, each read by its tool's source and every row mapped to an
AgentV test; ids made unique; the suite's header put together (docs/imports.md).

Nothing is written here: `Conversion` is what the preview shows and what the service writes.
Any file that cannot be read refuses the whole import (SourceError, naming file and line).
"""

from __future__ import annotations

import gc
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .base import ImportWarning, Mapped, Reading, Row, SourceError, SourceFiles
from .langfuse import Langfuse
from .registry import BY_NAME, DATA_SUFFIXES, FORMAT_NAMES, SESSION_FORMATS, detect

TODAY_PROMPTS = ["{{ input }}"]


@dataclass
class FileResult:
    """What one file gave: its format, its tests and warnings, and for a session every user
    turn it may be tested at (the chosen ones among them)."""

    path: str
    format: str
    tests: list[Mapped] = field(default_factory=list)
    warnings: list[ImportWarning] = field(default_factory=list)
    turns: list[Row] = field(default_factory=list)
    chosen_turns: list[int] = field(default_factory=list)


@dataclass
class Conversion:
    """Every file's result, the suite's header for a new suite, and the files left out."""

    files: list[FileResult] = field(default_factory=list)
    header: dict[str, Any] = field(default_factory=dict)
    unsupported: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[ImportWarning] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)

    @property
    def tests(self) -> list[dict[str, Any]]:
        """The AgentV tests, in file and row order."""
        return [mapped.test for result in self.files for mapped in result.tests]

    @property
    def all_warnings(self) -> list[ImportWarning]:
        """The import's warnings and every file's."""
        return (
            self.warnings
            + [w for result in self.files for w in result.warnings]
            + [w for result in self.files for mapped in result.tests for w in mapped.warnings]
        )


def convert(
    files: SourceFiles,
    *,
    forced: str | None = None,
    turns: Mapping[str, Sequence[int]] | None = None,
    taken_ids: Collection[str] = (),
) -> Conversion:
    """Read and map every file of `files`: in `forced`'s format (every data file must be in
    it), else each in the format detected. `turns` chooses, by file, the user turns of a
    session to test at (default: its last answered one). Ids already in `taken_ids` (the
    suite's) or made twice get a suffix, with a warning. Raises SourceError when a file
    cannot be read, is not in `forced`'s format, or nothing at all is found."""
    if forced is not None and forced not in BY_NAME:
        names = ", ".join(FORMAT_NAMES)
        raise SourceError(f"unknown format {forced!r}; one of: {names}")
    with plain_data():
        return _convert(files, forced, turns or {}, taken_ids)


@contextmanager
def plain_data() -> Iterator[None]:
    """Pause the cyclic garbage collector while building rows of plain data: they hold no
    cycles (reference counting frees them), and the collector would otherwise walk every row
    made so far again and again (a third of a large import's time)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _convert(
    files: SourceFiles,
    forced: str | None,
    turns: Mapping[str, Sequence[int]],
    taken_ids: Collection[str],
) -> Conversion:
    conversion = Conversion()
    chosen = {path: list(numbers) for path, numbers in turns.items()}
    found = _formats(files, forced, conversion)
    consumed: set[str] = set()
    for path, source in found:
        consumed |= source.consumed(path, files) - {path}
    conversion.skipped = [(path, why) for path, why in conversion.skipped if path not in consumed]
    for path, source in found:
        if path in consumed:
            continue
        reading = source.read(path, files)
        result = FileResult(path, source.name, warnings=list(reading.warnings))
        rows = reading.rows
        if source.name in SESSION_FORMATS:
            rows = _chosen_turns(path, rows, chosen.get(path), result)
        for row in rows:
            if source.name == Langfuse.name and Langfuse.archived(row):
                message = "an archived item: Langfuse leaves it out of runs, so does the import"
                result.warnings.append(ImportWarning(row.file, row.where, "status", message))
                continue
            result.tests.append(source.map(row))
        _merge_header(conversion, path, reading)
        conversion.files.append(result)
    _unique_ids(conversion, set(taken_ids))
    if not conversion.tests:
        raise SourceError("no tests were found in the files given")
    _check_prompts(conversion)
    return conversion


def _check_prompts(conversion: Conversion) -> None:
    """A promptfoo config's own prompts render its tests' variables; the other formats' tests
    send `vars.input` through today's `{{ input }}`: one suite cannot hold both."""
    if "prompts" not in conversion.header or conversion.header["prompts"] == TODAY_PROMPTS:
        return
    others = sorted({result.format for result in conversion.files} - {"promptfoo"})
    if others:
        config = next(result.path for result in conversion.files if result.format == "promptfoo")
        raise SourceError(
            f"its prompts render its own variables, while the tests of {', '.join(others)} "
            "send their input as it is: import them into separate suites",
            file=config,
        )


def _formats(
    files: SourceFiles, forced: str | None, conversion: Conversion
) -> list[tuple[str, Any]]:
    """Each data file with its source; other files are left out, and said so."""
    found = []
    for path in sorted(files):
        if not path.endswith(DATA_SUFFIXES):
            conversion.skipped.append((path, "not a data file (JSON, JSON lines, CSV or YAML)"))
            continue
        text = files.get(path) or ""
        if forced is not None:
            source = BY_NAME[forced]
            if not source.detect(path, text):
                detected = detect(path, text)
                also = f" (it reads as {detected.name})" if detected is not None else ""
                raise SourceError(f"this is not a {forced} file{also}", file=path, line=1)
        else:
            detected = detect(path, text)
            if detected is None:
                conversion.skipped.append((path, "not in any format this import reads"))
                continue
            source = detected
        if source.name == "claude-code" and "subagents" in path.split("/")[:-1]:
            # Claude Code keeps a subagent's messages in `<session>/subagents/`: its parent's
            # session holds the call that started it, so it is no session to test on its own.
            conversion.skipped.append((path, "a subagent's session (see its parent session)"))
            continue
        found.append((path, source))
    # A file that others read (a config's tests) is not left out: `convert` skips it there.
    return found


def _chosen_turns(
    path: str, rows: list[Row], numbers: list[int] | None, result: FileResult
) -> list[Row]:
    result.turns = rows
    if not numbers:
        picked = [row for row in rows if row.context.get("default")]
    else:
        for number in numbers:
            if not 1 <= number <= len(rows):
                raise SourceError(
                    f"there is no user turn {number}: the session has {len(rows)}", file=path
                )
        picked = [rows[number - 1] for number in sorted(set(numbers))]
    result.chosen_turns = [int(row.context["turn"]) for row in picked]
    return picked


def _merge_header(conversion: Conversion, path: str, reading: Reading) -> None:
    conversion.unsupported += reading.unsupported
    for key, value in reading.header.items():
        if key not in conversion.header:
            conversion.header[key] = value
        elif conversion.header[key] != value:
            message = "differs from the first file's; the first is kept for the suite"
            conversion.warnings.append(ImportWarning(path, "", key, message))


def suite_header(conversion: Conversion, description: str | None = None) -> dict[str, Any]:
    """The top level of a new suite holding the tests: today's `prompts: ["{{ input }}"]`
    unless a promptfoo config brought its own, its `default_test`, and the top-level keys
    with no AgentV meaning kept in `default_test.metadata.imported_unsupported`."""
    header: dict[str, Any] = {}
    if description or conversion.header.get("description"):
        header["description"] = description or conversion.header["description"]
    header["prompts"] = conversion.header.get("prompts", TODAY_PROMPTS)
    for key, value in conversion.header.items():
        if key not in ("description", "prompts", "default_test"):
            header[key] = value
    default = dict(conversion.header.get("default_test") or {})
    if conversion.unsupported:
        metadata = dict(default.get("metadata") or {})
        metadata["imported_unsupported"] = conversion.unsupported
        default["metadata"] = metadata
    if default:
        header["default_test"] = default
    header["tests"] = None  # where the tests go (eval_files/writing.py)
    return header


def _unique_ids(conversion: Conversion, taken: set[str]) -> None:
    for result in conversion.files:
        for mapped in result.tests:
            case_id = str(mapped.test["id"])
            if case_id not in taken:
                taken.add(case_id)
                continue
            number = 2
            while f"{case_id}-{number}" in taken:
                number += 1
            new_id = f"{case_id}-{number}"
            taken.add(new_id)
            mapped.test["id"] = new_id
            mapped.warnings.append(
                ImportWarning(
                    mapped.row.file,
                    mapped.row.where,
                    "id",
                    f"{case_id!r} is taken: the test is {new_id!r}",
                )
            )

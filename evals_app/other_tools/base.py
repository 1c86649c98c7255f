"""The interface every tool's module follows, and the pieces they share: the files of an import,
a source row, the warnings, and the builder of one AgentV test (docs/imports.md)."""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..eval_files.errors import EvalFileError
from ..eval_files.reading import NUL_REFUSED, case_id_problem, nul_field

# What a test without its own grading is checked with when the source gives a reference
# answer: AgentV reads `vars.expected_output` only through an assertion, and skips a test that
# has nothing to grade (its loader's own advice for a reference answer).
REFERENCE_RUBRIC = "Matches the reference answer: {{ expected_output }}"


class SourceError(EvalFileError):
    """A file that cannot be read as the tool's format: names the file and line (or row)."""


@dataclass(frozen=True)
class SourceFiles:
    """The files of one import by path (POSIX, relative to what was given), decoded."""

    texts: Mapping[str, str]

    def get(self, path: str) -> str | None:
        """The text of the file at `path` (normalised), or None when it was not given."""
        return self.texts.get(posixpath.normpath(path))

    def __iter__(self) -> Iterator[str]:
        return iter(self.texts)

    def beside(self, path: str, reference: str) -> str:
        """The path of `reference` (`file://x` or `x`) read from the folder of `path`."""
        name = reference.removeprefix("file://")
        return posixpath.normpath(posixpath.join(posixpath.dirname(path), name))


@dataclass(slots=True)
class Row:
    """One record of a source file: its data, its 1-based row, and its line when known.
    (Not frozen: a frozen dataclass costs a call per field, and files have many rows.)"""

    file: str
    row: int
    data: Any
    line: int | None = None
    # What the file's reader learned that the mapping needs (a config's defaults, an eval's
    # grading class, the chosen turn of a session).
    context: Mapping[str, Any] = field(default_factory=dict)

    @property
    def where(self) -> str:
        """`row 3` or `row 3 (line 4)`, as warnings name it."""
        return f"row {self.row}" + (f" (line {self.line})" if self.line is not None else "")


@dataclass(frozen=True)
class ImportWarning:
    """Something the import kept without an AgentV meaning, or could not use."""

    file: str
    where: str
    field: str
    message: str

    def __str__(self) -> str:
        located = f"{self.file}: {self.where}" if self.where else self.file
        return (
            f"{located}: {self.field}: {self.message}"
            if self.field
            else f"{located}: {self.message}"
        )


@dataclass
class Reading:
    """The rows of a file, and warnings about the file itself (a reference not found)."""

    rows: list[Row]
    warnings: list[ImportWarning] = field(default_factory=list)
    # For a new suite: the top-level keys the file sets (a promptfoo config's `prompts` and
    # `default_test`), and what of its top level has no AgentV meaning (kept, warned).
    header: dict[str, Any] = field(default_factory=dict)
    unsupported: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Mapped:
    """One AgentV test made from one row, with the warnings of its row."""

    test: dict[str, Any]
    warnings: list[ImportWarning]
    row: Row
    generated_id: bool = False


class Source(Protocol):
    """One tool's format: how to recognise its files, read their rows, and map a row."""

    name: str
    label: str

    def detect(self, path: str, text: str) -> bool:
        """Whether the file at `path` is this tool's (looked at cheaply: its start)."""
        ...

    def read(self, path: str, files: SourceFiles) -> Reading:
        """The rows of the file at `path`; raises SourceError naming the file and line."""
        ...

    def map(self, row: Row) -> Mapped:
        """The AgentV test of `row` (its id may still be made unique by the engine)."""
        ...

    def consumed(self, path: str, files: SourceFiles) -> set[str]:
        """The other files that reading `path` reads (a config's tests, a registry's samples),
        so that they are not imported again on their own."""
        ...


class TestBuilder:
    """Puts one AgentV test together, in the key order AgentV's examples write: `id`,
    `description`, `assert`, `vars`, `metadata`; keeps what has no AgentV meaning in
    `metadata.imported_unsupported` with a warning naming file, row and field."""

    __test__ = False  # not a pytest class, despite its name
    __slots__ = (
        "row",
        "source",
        "case_id",
        "description",
        "asserts",
        "vars",
        "metadata",
        "extra",
        "unsupported",
        "warnings",
        "generated",
    )

    def __init__(self, row: Row, source: str) -> None:
        self.row = row
        self.source = source
        self.case_id: str | None = None
        self.description: str | None = None
        self.asserts: list[Any] = []
        self.vars: dict[str, Any] = {}
        self.metadata: dict[str, Any] = {}
        self.extra: dict[str, Any] = {}
        self.unsupported: list[dict[str, Any]] = []
        self.warnings: list[ImportWarning] = []
        self.generated = False

    def warn(self, field_name: str, message: str) -> None:
        """A warning about this row's `field_name`."""
        self.warnings.append(ImportWarning(self.row.file, self.row.where, field_name, message))

    def keep_unsupported(self, field_name: str, value: Any, reason: str) -> None:
        """Keep `value` of `field_name` in `metadata.imported_unsupported`, and warn."""
        self.unsupported.append({"field": field_name, "value": value, "reason": reason})
        self.warn(field_name, f"kept in metadata.imported_unsupported: {reason}")

    def set_id(self, source_id: Any, fallback: str) -> None:
        """The source's id when it has a usable one, else `fallback` marked as generated."""
        if isinstance(source_id, int | str) and not isinstance(source_id, bool):
            text = str(source_id)
            problem = case_id_problem(text)
            if problem is None:
                self.case_id = text
                return
            self.warn("id", f"{problem}; a generated id is used and the original kept")
            self.metadata["original_id"] = source_id
        self.case_id = fallback
        self.generated = True

    def build(self) -> Mapped:
        """The test, its warnings and whether its id was generated; refused when a text of it
        holds NUL, which no AgentV file and no database column holds."""
        test: dict[str, Any] = {"id": self.case_id}
        if self.description:
            test["description"] = self.description
        if not self.asserts and "expected_output" in self.vars:
            self.asserts.append({"type": "llm-rubric", "value": REFERENCE_RUBRIC})
        if self.asserts:
            test["assert"] = self.asserts
        test["vars"] = self.vars
        test.update(self.extra)
        source: dict[str, Any] = {"format": self.source, "file": self.row.file}
        if self.row.line is not None:
            source["line"] = self.row.line
        else:
            source["row"] = self.row.row
        if self.generated:
            source["generated_id"] = True
        metadata = {"source": source, **self.metadata}
        if self.unsupported:
            metadata["imported_unsupported"] = self.unsupported
        test["metadata"] = metadata
        held = nul_field(test)
        if held is not None:
            raise SourceError(
                NUL_REFUSED if self.row.line is not None else f"{self.row.where}: {NUL_REFUSED}",
                file=self.row.file,
                line=self.row.line,
                field=held,
            )
        return Mapped(test, self.warnings, self.row, self.generated)


def generated_id(path: str, row: int) -> str:
    """A stable id for row `row` of the file at `path`: its name's stem and the row."""
    return f"{_stem(path)}-{row}"


@functools.lru_cache(maxsize=64)
def _stem(path: str) -> str:
    return posixpath.basename(path).split(".")[0] or "test"


def is_list_of_text(value: Any) -> bool:
    """Whether AgentV would expand a variable holding `value` into one test per item."""
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def set_var(builder: TestBuilder, name: str, value: Any) -> None:
    """`vars.NAME`, unless AgentV would expand a list of texts into one test per item (a
    source's list is one value, not a matrix): such a list goes to `metadata.NAME`."""
    if is_list_of_text(value):
        builder.metadata[name] = value
        return
    builder.vars[name] = value

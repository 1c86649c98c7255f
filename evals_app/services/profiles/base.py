"""What every AgentV profile answers (docs/formatting.md): the one small interface behind which
`profile_2025` and `profile_2026` each keep their rules, so that no caller branches on a profile.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ...eval_files.dialects import Profile
from ...formatting.lint import RoleOrder
from ...formatting.profile_2025.formatter import Mode
from ...formatting.workspace_files import FileSource

if TYPE_CHECKING:  # the formatter reads the database; profiles only receive one
    from ...eval_files.case_parts import CaseParts
    from ...eval_files.discovery import FoundEvalFile
    from ...models import Suite
    from .workspace_formatter import WorkspaceFormatter


@dataclass(frozen=True, slots=True)
class Summary:
    """A case's summary as stored: its lm formatting in short, or why there is none, and the
    findings of the one-case lint rules (docs/user-guide.md, "Lint rules")."""

    input_turns: int
    role_markers: bool | None
    reason: str = ""
    warnings: tuple[str, ...] = ()
    problem: str = ""
    lint: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class FormattedTexts:
    """What the model and each judge receive for one test of a case, by title in reading
    order. `test_id` is None for a profile that formats a case as one test."""

    test_id: str | None
    texts: dict[str, str]


@dataclass
class FileReading:
    """What formatting an eval file's cases at import gives: a summary per case, the warnings
    (each naming the file) and the workspace files the cases read, by path."""

    summaries: list[Summary] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class NewSuite:
    """How a new, empty eval file of a profile looks: its top-level mapping and the key of its
    list of cases."""

    document: dict[Any, Any]
    cases_key: str


def suite_files(suite: Suite) -> dict[str, str | None]:
    """The `file` and `cases_file` of a formatted row (docs/formats.md, "Export"): `file` is the
    eval file AgentV is asked to run, so the cases of a file of cases (`tests: file://…`) name
    the suite that refers to them, and `cases_file` the file they live in (None for inline)."""
    if suite.referenced_by:
        return {"file": suite.referenced_by, "cases_file": suite.path}
    return {"file": suite.path, "cases_file": None}


class SuiteProfile(Protocol):
    """The rules of one AgentV profile. `name` is what `Suite.profile` stores; `word` is how
    code, templates and docs name it (`2025`, `2026`)."""

    name: Profile
    word: str
    label: str
    # Whether a case runs once per prompt and list value, each run its own formatted test
    # (the editor offers variables, asserts and turns; the settings page lists the runs).
    expands_tests: bool
    # The order of roles the conversation linter checks (docs/user-guide.md, "Lint rules").
    role_order: RoleOrder
    # The spellings of the list of cases a file gets this profile by, when first read.
    cases_keys: tuple[str, ...]

    def new_suite(self) -> NewSuite:
        """How a new, empty eval file of this profile looks."""
        ...

    def is_older(self, suite: Suite) -> bool:
        """Whether `suite` is written for an older AgentV than today's (docs/formats.md,
        "Upgrading to today's format")."""
        ...

    def question(self, formatter: WorkspaceFormatter, suite: Suite, document: Any) -> str:
        """What the model receives for the case `document` (lm mode), as one text. Raises
        EvalFileError when the case cannot be formatted."""
        ...

    def summary(
        self, formatter: WorkspaceFormatter, suite: Suite, document: Any, parts: CaseParts
    ) -> Summary:
        """The stored summary of the case `document` of `suite` (`parts`: it taken apart)."""
        ...

    def formatted_texts(
        self, formatter: WorkspaceFormatter, suite: Suite, document: Any
    ) -> list[FormattedTexts] | None:
        """What the model and the judge see of the case `document`, per test; None when it
        cannot be formatted."""
        ...

    def formatted_rows(
        self,
        formatter: WorkspaceFormatter,
        suite: Suite,
        document: dict[Any, Any],
        modes: tuple[Mode, ...],
        *,
        toon: bool = False,
        single: bool = False,
    ) -> list[dict[str, Any]]:
        """The rows of `formatted.jsonl` for the case `document` (docs/user-guide.md, "Command
        line")."""
        ...

    def read_file(
        self,
        eval_file: FoundEvalFile,
        header: dict[Any, Any],
        files: FileSource,
        guideline_patterns: tuple[str, ...],
    ) -> FileReading:
        """Format every case of `eval_file` (lm mode) as an import does; `header` holds the
        top-level fields that apply to its cases."""
        ...

    def files_read(
        self, eval_file: FoundEvalFile, header: dict[Any, Any], files: FileSource
    ) -> dict[str, str]:
        """The workspace files, by path, that formatting the cases of `eval_file` reads
        (configs and the file itself aside): what an import or a sync stores with it."""
        ...

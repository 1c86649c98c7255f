"""The AgentV 2025 profile: guidelines, `evalcases` files, one formatted question per case
(docs/formatting.md)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...eval_files.case_parts import CaseParts, case_input, file_evaluators, split_case
from ...eval_files.dialects import EVAL_SCHEMA, PROFILE_LABELS, Profile
from ...eval_files.errors import EvalFileError
from ...eval_files.merge_keys import merged
from ...eval_files.reading import read_case
from ...formatting.lint import RoleOrder
from ...formatting.profile_2025.formatter import FormattedCase, Mode, format_case
from ...formatting.toon import encode_turns
from ...formatting.workspace_files import FileSource, resolve_file
from .base import FileReading, FormattedTexts, NewSuite, Summary, suite_files
from .linting import case_lint

if TYPE_CHECKING:
    from ...eval_files.discovery import FoundEvalFile
    from ...models import Suite
    from .workspace_formatter import WorkspaceFormatter


class Profile2025:
    """The rules of AgentV as of November 2025 (`formatting/engine.py`)."""

    name: Profile = "agentv-2025"
    word = "2025"
    label = PROFILE_LABELS[name]
    expands_tests = False
    # A system turn after the first other turn goes to the model as an assistant turn.
    role_order = RoleOrder(later_system="an assistant turn that begins with @[System]:")
    cases_keys: tuple[str, ...] = ("evalcases", "eval_cases", "cases")

    def new_suite(self) -> NewSuite:
        """`$schema` and an empty `evalcases` list."""
        return NewSuite({"$schema": EVAL_SCHEMA, "evalcases": []}, "evalcases")

    def is_older(self, suite: Suite) -> bool:
        """Every suite of this profile is older, but a CSV file of cases (read-only)."""
        return not suite.read_only

    def question(self, formatter: WorkspaceFormatter, suite: Suite, document: Any) -> str:
        """The formatted question of the case."""
        return formatter.format_parts(read_case(document), suite).question

    def summary(
        self, formatter: WorkspaceFormatter, suite: Suite, document: Any, parts: CaseParts
    ) -> Summary:
        """The lm formatting of the case in short, and its lint."""
        summary = summary_of(len(parts.input_messages), formatter.format_parts(parts, suite, "lm"))
        header = formatter.file_header(suite)
        lint = case_lint(self, document, header, eval_path=suite.path, files=formatter.files)
        return replace(summary, lint=lint)

    def formatted_texts(
        self, formatter: WorkspaceFormatter, suite: Suite, document: Any
    ) -> list[FormattedTexts] | None:
        """The question, the guidelines and the judge prompt of the one test a case is."""
        try:
            formatted = formatter.format_parts(read_case(document), suite)
        except EvalFileError:
            return None
        texts = {
            "Formatted question": formatted.question,
            "Guidelines": formatted.guidelines,
            "Judge prompt": formatted.evaluator_prompt(),
        }
        return [FormattedTexts(None, texts)]

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
        """One row per mode."""
        parts = split_case(document)
        formatted = (
            [formatter.format_single(parts, suite, mode) for mode in modes]
            if single
            else formatter.format_parts_in_modes(parts, suite, modes)
        )
        return [case_row(suite, parts.case_id, item, toon=toon) for item in formatted]

    def read_file(
        self,
        eval_file: FoundEvalFile,
        header: dict[Any, Any],
        files: FileSource,
        guideline_patterns: tuple[str, ...],
    ) -> FileReading:
        """Each case formatted once; its evaluators are those of the file itself."""
        reading = FileReading()
        lint_header = merged(header)  # once per file, not per case
        evaluators = file_evaluators(eval_file.contents.header)
        contents = eval_file.contents
        for document, parts in zip(contents.cases, contents.parts, strict=True):
            case = case_input(parts, evaluators)
            reading.files.update(_resolved(case.file_references(), eval_file.path, files))
            formatted = format_case(
                case, eval_path=eval_file.path, files=files, guideline_patterns=guideline_patterns
            )
            reading.warnings.extend(
                f"{eval_file.path}: {warning.message}" for warning in formatted.warnings
            )
            lint = case_lint(self, document, lint_header, eval_path=eval_file.path, files=files)
            reading.summaries.append(
                replace(summary_of(len(parts.input_messages), formatted), lint=lint)
            )
        return reading

    def files_read(
        self, eval_file: FoundEvalFile, header: dict[Any, Any], files: FileSource
    ) -> dict[str, str]:
        """The files the cases' file blocks and judge prompts name."""
        found: dict[str, str] = {}
        evaluators = file_evaluators(eval_file.contents.header)
        for parts in eval_file.contents.parts:
            references = case_input(parts, evaluators).file_references()
            found.update(_resolved(references, eval_file.path, files))
        return found


PROFILE = Profile2025()


def summary_of(input_turns: int, formatted: FormattedCase) -> Summary:
    """The summary of a case that formats as `formatted` (lm mode)."""
    warnings = tuple(warning.message for warning in formatted.warnings)
    return Summary(input_turns, formatted.role_markers, formatted.reason, warnings)


def case_row(
    suite: Suite, case_id: str, formatted: FormattedCase, *, toon: bool = False
) -> dict[str, Any]:
    """The row of a case formatted in `formatted.mode`; with `toon`, `question_toon` too."""
    row: dict[str, Any] = {
        **suite_files(suite),
        "id": case_id,
        "mode": formatted.mode,
        "question": formatted.question,
        "guidelines": formatted.guidelines,
        "chat_prompt": formatted.chat_prompt,
        "evaluator_prompt": formatted.evaluator_prompt(),
        "role_markers": formatted.role_markers,
        "reason": formatted.reason,
        "warnings": [warning.message for warning in formatted.warnings],
        "profile": PROFILE.name,
        "system_message": None,
    }
    if toon:
        row["question_toon"] = encode_turns(formatted.turns)
    return row


def _resolved(values: list[str], eval_path: str, files: FileSource) -> dict[str, str]:
    """The workspace files that the references `values` resolve to, by path."""
    found: dict[str, str] = {}
    for value in values:
        resolution = resolve_file(value, eval_path, files)
        if resolution.file is not None:
            found[resolution.file.path] = resolution.file.text
    return found

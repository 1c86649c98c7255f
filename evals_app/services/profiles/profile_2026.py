"""The AgentV 2026 profile: today's `tests` files, each case run once per prompt and list value
(docs/formatting.md, "The AgentV 2026 profile")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...eval_files.case_parts import CaseParts
from ...eval_files.dialects import PROFILE_LABELS, Profile
from ...eval_files.merge_keys import merged
from ...eval_files.upgrade import is_older_file
from ...formatting.lint import RoleOrder
from ...formatting.profile_2025.formatter import Mode
from ...formatting.profile_2026 import FormattedTest, format_tests_2026
from ...formatting.toon import encode_turns
from ...formatting.workspace_files import FileSource
from .base import FileReading, FormattedTexts, NewSuite, Summary, suite_files
from .linting import case_lint

if TYPE_CHECKING:
    from ...eval_files.discovery import FoundEvalFile
    from ...models import Suite
    from .workspace_formatter import WorkspaceFormatter


class Profile2026:
    """The rules of today's AgentV (version 5), `formatting/profile_2026/`."""

    name: Profile = "agentv-2026"
    word = "2026"
    label = PROFILE_LABELS[name]
    expands_tests = True
    # A system turn after the first other turn goes to the model as an assistant turn.
    role_order = RoleOrder(later_system="an assistant turn that begins with @[System]:")
    cases_keys: tuple[str, ...] = ("tests",)

    def new_suite(self) -> NewSuite:
        """The prompt that sends each test's input as it is, and an empty `tests` list: no
        `$schema`, which only older files have (`is_older`)."""
        return NewSuite({"prompts": ["{{ input }}"], "tests": []}, "tests")

    def is_older(self, suite: Suite) -> bool:
        """An older list of cases, or a `tests` file of 2026-02 (`eval_files.upgrade`)."""
        return not suite.read_only and is_older_file(suite.document, suite.cases_key)

    def question(self, formatter: WorkspaceFormatter, suite: Suite, document: Any) -> str:
        """Each expanded test's question (its system message included); under its id when there
        are several."""
        if not isinstance(document, dict):
            return ""
        tests = formatter.format_tests(document, suite)
        if len(tests) == 1:
            return tests[0].question
        return "\n\n".join(f"# {test.id}\n{test.question}" for test in tests)

    def summary(
        self, formatter: WorkspaceFormatter, suite: Suite, document: Any, parts: CaseParts
    ) -> Summary:
        """The markers of the first expanded test and the warnings of them all, and its lint."""
        tests = formatter.format_tests(document, suite, "lm")
        header = formatter.file_header(suite)
        lint = case_lint(self, document, header, eval_path=suite.path, files=formatter.files)
        return replace(summary_of_tests(len(parts.input_messages), tests), lint=lint)

    def formatted_texts(
        self, formatter: WorkspaceFormatter, suite: Suite, document: Any
    ) -> list[FormattedTexts] | None:
        """Per expanded test: the question, the system message, each judge prompt and each
        conversation turn's chat messages."""
        if not isinstance(document, dict):
            return None
        tests = formatter.format_tests(document, suite)
        return [FormattedTexts(test.id, _texts(test)) for test in tests]

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
        """One row per expanded test and mode, each test's modes together."""
        by_mode = (
            [formatter.format_tests(document, suite, mode, single=True) for mode in modes]
            if single
            else formatter.format_tests_in_modes(document, suite, modes)
        )
        return [
            expanded_test_row(suite, test, toon=toon)
            for tests in zip(*by_mode, strict=True)
            for test in tests
        ]

    def read_file(
        self,
        eval_file: FoundEvalFile,
        header: dict[Any, Any],
        files: FileSource,
        guideline_patterns: tuple[str, ...],
    ) -> FileReading:
        """Each test formatted once; the files read are those AgentV finds once every template
        is rendered (prompt files, input files, file blocks, judge prompts)."""
        contents = eval_file.contents
        recording = _RecordingFiles(files)
        reading = FileReading()
        lint_header = merged(header)  # once per file, not per case
        for document, parts in zip(contents.cases, contents.parts, strict=True):
            tests = format_tests_2026(
                merged(document), merged(header), eval_path=eval_file.path, files=recording
            )
            warnings = dict.fromkeys(warning.message for test in tests for warning in test.warnings)
            reading.warnings.extend(f"{eval_file.path}: {message}" for message in warnings)
            lint = case_lint(self, document, lint_header, eval_path=eval_file.path, files=files)
            summary = summary_of_tests(len(parts.input_messages), tests)
            reading.summaries.append(replace(summary, lint=lint))
        reading.files = recording.found
        return reading

    def files_read(
        self, eval_file: FoundEvalFile, header: dict[Any, Any], files: FileSource
    ) -> dict[str, str]:
        """What `read_file` reads: formatting is how a rendered template's file is known."""
        return self.read_file(eval_file, header, files, ()).files


PROFILE = Profile2026()


def summary_of_tests(input_turns: int, tests: Sequence[FormattedTest]) -> Summary:
    """The summary of a test: the markers of its first expanded test, and the warnings of them
    all, each once (docs/formatting.md)."""
    if not tests:
        return Summary(input_turns, None, problem="expands to no test: a list variable is empty")
    warnings = dict.fromkeys(warning.message for test in tests for warning in test.warnings)
    return Summary(input_turns, tests[0].role_markers, tests[0].reason, tuple(warnings))


def expanded_test_row(suite: Suite, test: FormattedTest, *, toon: bool = False) -> dict[str, Any]:
    """The row of one expanded test (docs/formatting.md)."""
    row: dict[str, Any] = {
        **suite_files(suite),
        "id": test.id,
        "mode": test.mode,
        "question": test.question,
        "guidelines": "",  # AgentV 2026 has no guidelines
        "chat_prompt": test.chat_prompt,
        "evaluator_prompt": test.evaluator_prompt,
        "role_markers": test.role_markers,
        "reason": test.reason,
        "warnings": [warning.message for warning in test.warnings],
        "profile": PROFILE.name,
        "system_message": test.system_message,
    }
    if test.turns is not None:
        row["turns"] = [turn.as_json() for turn in test.turns]
    if toon:
        row["question_toon"] = encode_turns(test.messages)
    return row


def _texts(test: FormattedTest) -> dict[str, str]:
    """What the model and each judge receive for `test`, by title, in reading order."""
    texts = {"Formatted question": test.question}
    if test.system_message is not None:
        texts["System message"] = test.system_message
    for number, judge in enumerate(test.judges, start=1):
        if judge.prompt is not None:
            texts[f"Judge prompt {number} ({judge.label})"] = judge.prompt
    for turn_number, turn in enumerate(test.turns or (), start=1):
        texts[f"Turn {turn_number}: chat messages"] = "\n\n".join(
            f"@[{message['role'].title()}]:\n{message['content']}" for message in turn.chat_prompt
        )
        for number, judge in enumerate(turn.judges, start=1):
            if judge.prompt is not None:
                texts[f"Turn {turn_number}: judge prompt {number} ({judge.label})"] = judge.prompt
    return texts


class _RecordingFiles:
    """A file source that remembers the files found through it."""

    def __init__(self, files: FileSource) -> None:
        self.files = files
        self.found: dict[str, str] = {}

    def read_text(self, path: str) -> str | None:
        text = self.files.read_text(path)
        if text is not None:
            self.found[path] = text
        return text

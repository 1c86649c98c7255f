"""Formatting stored cases: the same engine and the same inputs as for files on disk."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import Any

from ...eval_files.case_parts import CaseParts, case_input, file_evaluators, split_case
from ...eval_files.configs import Config, is_config_path, patterns_for, read_config
from ...eval_files.merge_keys import merged
from ...formatting.case_input import CaseInput
from ...formatting.profile_2025.formatter import (
    FormattedCase,
    Mode,
    format_case,
    format_case_in_modes,
)
from ...formatting.profile_2026 import (
    FormattedTest,
    file_references_2026,
    format_tests_2026,
    format_tests_2026_in_modes,
)
from ...formatting.workspace_files import MappingFiles, candidate_paths
from ...models import Case, Suite, Workspace


def workspace_configs(workspace: Workspace) -> dict[str, Config]:
    """Every `.agentv/config.yaml` of the workspace, read, by path (one query)."""
    configs = workspace.files.filter(path__endswith=".agentv/config.yaml")
    return {
        path: read_config(path, text)
        for path, text in configs.values_list("path", "text")
        if is_config_path(path)
    }


class WorkspaceFormatter:
    """Formats cases of one workspace, reading its stored files and configs once."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self._file_evaluators: dict[int, tuple[Any, ...]] = {}
        self._patterns: dict[str, tuple[str, ...]] = {}
        # The header of each eval file that refers to another's cases, None if it is gone.
        self._referrer_headers: dict[str, dict[Any, Any] | None] = {}
        # The stored files asked for by path so far, and those found (`_stored_texts`).
        self._asked_paths: set[str] = set()
        self._asked_texts: dict[str, str] = {}

    @cached_property
    def file_texts(self) -> dict[str, str]:
        """The workspace's stored files by path, loaded on first use."""
        return self.workspace.file_texts()

    @cached_property
    def files(self) -> MappingFiles:
        """The stored files as the engine reads them."""
        return MappingFiles(self.file_texts)

    @cached_property
    def configs(self) -> dict[str, Config]:
        """The workspace's configs by path, read on first use."""
        if "file_texts" in self.__dict__:
            return {
                path: read_config(path, text)
                for path, text in self.file_texts.items()
                if is_config_path(path)
            }
        return workspace_configs(self.workspace)

    def guideline_patterns(self, suite: Suite) -> tuple[str, ...]:
        """The patterns of the config nearest to `suite`'s file (docs/formats.md)."""
        patterns = self._patterns.get(suite.path)
        if patterns is None:  # looked up once per suite, not for every case
            patterns = self._patterns[suite.path] = patterns_for(suite.path, self.configs)
        return patterns

    def format(self, case: Case, suite: Suite, mode: Mode = "lm") -> FormattedCase:
        """Format one stored case of `suite` (a suite of this workspace)."""
        return self.format_parts(split_case(case.document), suite, mode)

    def format_parts(self, parts: CaseParts, suite: Suite, mode: Mode = "lm") -> FormattedCase:
        """Format a case taken apart (stored, or the unsaved state of an editor form)."""
        return self._format(self.case_input(parts, suite), suite, mode, self.files)

    def case_input(self, parts: CaseParts, suite: Suite) -> CaseInput:
        """What the engine reads of `parts`, a case of `suite`."""
        return case_input(parts, self._suite_evaluators(suite))

    def format_parts_in_modes(
        self, parts: CaseParts, suite: Suite, modes: Sequence[Mode]
    ) -> list[FormattedCase]:
        """`format_parts` in each of `modes`, formatting once when the mode changes nothing."""
        return format_case_in_modes(
            self.case_input(parts, suite),
            modes,
            eval_path=suite.path,
            files=self.files,
            guideline_patterns=self.guideline_patterns(suite),
        )

    def format_single(self, parts: CaseParts, suite: Suite, mode: Mode = "lm") -> FormattedCase:
        """`format_parts` for one case, as the preview does on every keystroke: unless the
        files are loaded already, reads only those the case may refer to (one query)."""
        case = self.case_input(parts, suite)
        if "file_texts" in self.__dict__:
            return self._format(case, suite, mode, self.files)
        paths = _referable_paths(case, suite.path)
        if len(paths) > _MAX_PATHS_IN_QUERY:
            return self._format(case, suite, mode, self.files)
        return self._format(case, suite, mode, MappingFiles(self._stored_texts(paths)))

    def format_tests(
        self,
        document: dict[Any, Any],
        suite: Suite,
        mode: Mode = "lm",
        *,
        single: bool = False,
        candidate_answer: str | None = None,
    ) -> list[FormattedTest]:
        """Format a test of a suite of the AgentV 2026 profile: one result per expanded test
        (docs/formatting.md, "The AgentV 2026 profile"). With `single`, as the preview does on
        every keystroke, reads only the files the test may refer to unless they are loaded."""
        files = self.files
        header = self.file_header(suite)
        document = merged(document)  # as AgentV reads it (eval_files/merge_keys.py)
        if single and "file_texts" not in self.__dict__:
            files = self._files_for(file_references_2026(document, header), suite.path)
        return format_tests_2026(
            document,
            header,
            eval_path=suite.path,
            files=files,
            mode=mode,
            checkout_folder=self.workspace.checkout_folder,
            candidate_answer=candidate_answer,
        )

    def format_tests_in_modes(
        self, document: dict[Any, Any], suite: Suite, modes: Sequence[Mode]
    ) -> list[list[FormattedTest]]:
        """`format_tests` in each of `modes` (per mode, the expanded tests), formatting once
        when the mode changes nothing."""
        return format_tests_2026_in_modes(
            merged(document),
            self.file_header(suite),
            modes,
            eval_path=suite.path,
            files=self.files,
            checkout_folder=self.workspace.checkout_folder,
        )

    def file_header(self, suite: Suite) -> dict[Any, Any]:
        """The top-level fields that apply to `suite`'s tests: its own, or, for a file of
        cases another eval file refers to, that file's (its `prompts`, `default_test`, …),
        merge keys merged."""
        if not suite.referenced_by:
            return merged(suite.document)
        if suite.referenced_by not in self._referrer_headers:
            self._read_referrer_headers({suite.referenced_by})
        header = self._referrer_headers[suite.referenced_by]
        return merged(header if header is not None else suite.document)

    def read_everything(self, suites: Iterable[Suite]) -> None:
        """Read now whatever formatting the cases of `suites` reads from the database: the
        stored files, the configs and the headers of the files referring to other files'
        cases. Formatting them then makes no query (export formats in worker processes)."""
        self.files  # noqa: B018 - read now, the configs from the files
        self.configs  # noqa: B018
        self._read_referrer_headers(
            {suite.referenced_by for suite in suites if suite.referenced_by}
        )

    def _read_referrer_headers(self, paths: set[str]) -> None:
        headers = dict(self.workspace.suites.filter(path__in=paths).values_list("path", "document"))
        for path in paths:
            self._referrer_headers[path] = headers.get(path)

    def files_for(self, references: list[str], eval_path: str) -> MappingFiles:
        """The stored files `references` (of the eval file at `eval_path`) may resolve to: the
        loaded files, else one query, as the preview reads them."""
        if "file_texts" in self.__dict__:
            return self.files
        return self._files_for(references, eval_path)

    def _files_for(self, references: list[str] | None, eval_path: str) -> MappingFiles:
        """The stored files that `references` may resolve to, in one query; every file when a
        reference is only known once rendered, or when there are too many to ask for."""
        if references is None:
            return self.files
        paths = {path for value in references for path in candidate_paths(value, eval_path)}
        if len(paths) > _MAX_PATHS_IN_QUERY:
            return self.files
        return MappingFiles(self._stored_texts(paths))

    def _stored_texts(self, paths: set[str]) -> dict[str, str]:
        """The stored texts of those of `paths` that are files, in one query; none when every
        path was asked for already (the preview's formatting and its lint read the same)."""
        if not paths <= self._asked_paths:
            found = self.workspace.files.filter(path__in=paths).values_list("path", "text")
            self._asked_texts.update(found)
            self._asked_paths |= paths
        return {path: self._asked_texts[path] for path in paths if path in self._asked_texts}

    def _format(
        self, case: CaseInput, suite: Suite, mode: Mode, files: MappingFiles
    ) -> FormattedCase:
        return format_case(
            case,
            eval_path=suite.path,
            files=files,
            guideline_patterns=self.guideline_patterns(suite),
            mode=mode,
        )

    def _suite_evaluators(self, suite: Suite) -> tuple[Any, ...]:
        # Read once per suite: an export formats every case of a suite twice.
        if suite.pk is None:
            return file_evaluators(suite.document)
        if suite.pk not in self._file_evaluators:
            self._file_evaluators[suite.pk] = file_evaluators(suite.document)
        return self._file_evaluators[suite.pk]


_MAX_PATHS_IN_QUERY = 500


def _referable_paths(case: CaseInput, eval_path: str) -> set[str]:
    """Every path formatting `case` may read (docs/formatting.md, "Resolving a file block")."""
    return {path for value in case.file_references() for path in candidate_paths(value, eval_path)}

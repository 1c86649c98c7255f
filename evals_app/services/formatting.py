"""Formatting stored cases: the same engine and the same inputs as for files on disk."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from ..formatting.engine import FormattedCase, Mode, format_case
from ..formatting.schema import EvalCase, Execution
from ..formatting.workspace_files import MappingFiles, candidate_paths
from ..models import Case, Suite, Workspace
from .documents import case_document


def stored_eval_case(case: Case) -> EvalCase:
    """The case as the engine sees it: built from the same mapping that export writes."""
    return EvalCase.model_validate(case_document(case))


def stored_document_eval_case(document: dict[str, Any]) -> EvalCase:
    """The EvalCase of a mapping built from stored rows (`case_reading`, `case_document`)."""
    return EvalCase.model_validate(document)


class WorkspaceFormatter:
    """Formats cases of one workspace, reading its stored files once."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self._file_executions: dict[int, Execution | None] = {}

    @cached_property
    def file_texts(self) -> dict[str, str]:
        """The workspace's stored files by path, loaded on first use."""
        return self.workspace.file_texts()

    @cached_property
    def files(self) -> MappingFiles:
        """The stored files as the engine reads them."""
        return MappingFiles(self.file_texts)

    def format(self, case: Case, suite: Suite, mode: Mode = "lm") -> FormattedCase:
        """Format one stored case of `suite` (a suite of this workspace)."""
        return self.format_eval_case(stored_eval_case(case), suite, mode)

    def format_eval_case(self, case: EvalCase, suite: Suite, mode: Mode = "lm") -> FormattedCase:
        """Format an already built EvalCase (e.g. the unsaved state of an editor form)."""
        return self._format(case, suite, mode, self.files)

    def format_single(self, case: EvalCase, suite: Suite, mode: Mode = "lm") -> FormattedCase:
        """`format_eval_case` for one case, as the preview does on every keystroke: unless the
        files are loaded already, reads only those the case may refer to (one query)."""
        if "file_texts" in self.__dict__:
            return self.format_eval_case(case, suite, mode)
        paths = _referable_paths(case, suite.path, self._file_execution(suite))
        if len(paths) > _MAX_PATHS_IN_QUERY:
            return self.format_eval_case(case, suite, mode)
        texts: dict[str, str] = {}
        if paths:
            texts = dict(self.workspace.files.filter(path__in=paths).values_list("path", "text"))
        return self._format(case, suite, mode, MappingFiles(texts))

    def _format(
        self, case: EvalCase, suite: Suite, mode: Mode, files: MappingFiles
    ) -> FormattedCase:
        return format_case(
            case,
            eval_path=suite.path,
            files=files,
            guideline_patterns=self.workspace.guideline_patterns,
            mode=mode,
            file_execution=self._file_execution(suite),
        )

    def _file_execution(self, suite: Suite) -> Execution | None:
        # Validated once per suite: an export formats every case of a suite twice.
        if suite.pk is None or suite.pk not in self._file_executions:
            execution = Execution.model_validate(suite.execution) if suite.execution else None
            if suite.pk is None:
                return execution
            self._file_executions[suite.pk] = execution
        return self._file_executions[suite.pk]


_MAX_PATHS_IN_QUERY = 500


def _referable_paths(case: EvalCase, eval_path: str, file_execution: Execution | None) -> set[str]:
    """Every path formatting `case` may read: the candidates of its file blocks (input and
    expected) and of its judge prompts (FORMATTING.md, "Resolving a file block")."""
    values = [
        value
        for message in (*case.input_messages, *case.expected_messages)
        for block_type, value in message.block_values()
        if block_type == "file"
    ]
    for execution in (case.execution, file_execution):
        for evaluator in (execution.evaluators or []) if execution else []:
            if evaluator.prompt:
                values.append(evaluator.prompt.strip())
    return {path for value in values for path in candidate_paths(value, eval_path)}

"""Formatting stored cases: the same engine and the same inputs as for files on disk."""

from __future__ import annotations

from functools import cached_property

from ..formatting.engine import FormattedCase, Mode, format_case
from ..formatting.schema import EvalCase, Execution
from ..formatting.workspace_files import MappingFiles
from ..models import Case, Suite, Workspace
from .documents import case_document


def stored_eval_case(case: Case) -> EvalCase:
    """The case as the engine sees it: built from the same mapping that export writes."""
    return EvalCase.model_validate(case_document(case))


class WorkspaceFormatter:
    """Formats cases of one workspace, reading its stored files once."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

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
        file_execution = Execution.model_validate(suite.execution) if suite.execution else None
        return format_case(
            case,
            eval_path=suite.path,
            files=self.files,
            guideline_patterns=self.workspace.guideline_patterns,
            mode=mode,
            file_execution=file_execution,
        )

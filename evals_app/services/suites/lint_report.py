"""The lint of a whole workspace, the rules across cases included (docs/user-guide.md, "Lint
rules"): what `export_evals --check` reports. Uses the profiles and the stored cases."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from ...eval_files.errors import EvalFileError
from ...formatting.lint import Finding, LintCase, lint_suite
from ...models import Case, Suite, Workspace
from ..profiles import profile_of
from ..profiles.base import suite_files
from ..profiles.linting import lint_subject
from ..profiles.workspace_formatter import WorkspaceFormatter


@dataclass(frozen=True)
class CaseFinding:
    """One finding, with where it is: the suite's file and the case's id."""

    path: str
    case_id: str
    finding: Finding

    def __str__(self) -> str:
        found = self.finding
        return f"{self.path}: {self.case_id}: {found.severity} {found.rule}: {found.message}"


def lint_workspace(workspace: Workspace) -> list[CaseFinding]:
    """Every lint finding of the workspace's cases, by suite and case order. The cases that one
    AgentV run reads together (an eval file and the files of cases it refers to) are compared
    for duplicate ids and near-duplicate questions (each case's lm question)."""
    formatter = WorkspaceFormatter(workspace)
    suites = list(workspace.suites.order_by("path"))
    formatter.read_everything(suites)
    runs: dict[str, list[tuple[Suite, LintCase]]] = defaultdict(list)
    for suite in suites:
        profile = profile_of(suite)
        header = formatter.file_header(suite)
        run = suite_files(suite)["file"] or suite.path
        for document in (
            Case.objects.filter(suite=suite).order_by("position").values_list("document", flat=True)
        ):
            subject = lint_subject(
                profile, document, header, eval_path=suite.path, files=formatter.files
            )
            if subject is not None:
                question = _question(formatter, suite, document)
                runs[run].append((suite, replace(subject, question=question)))
    found: list[CaseFinding] = []
    for members in runs.values():
        findings = lint_suite([subject for _, subject in members])
        for (suite, subject), items in zip(members, findings, strict=True):
            found.extend(CaseFinding(suite.path, subject.case_id, item) for item in items)
    return found


def _question(formatter: WorkspaceFormatter, suite: Suite, document: object) -> str:
    """The lm question the model receives, "" when the case cannot be formatted (formatting's
    own warnings say why)."""
    try:
        return profile_of(suite).question(formatter, suite, document)
    except EvalFileError:
        return ""

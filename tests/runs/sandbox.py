"""Shared pieces of the sandbox tests: a workspace from an eval file and other files (stored as
workspace files, as an editor's Files → New stores them), and running one of its cases."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth.models import User

from evals_app.models import Case, Run, Workspace, WorkspaceFile
from evals_app.services.runs.starting import start_run
from tests.factories import imported_workspace, write_files

from .conftest import access_of, editor_of

SUITE = "evals/suite.eval.yaml"
# A test AgentV 4.x runs: an input and a check the mock's answer passes.
PLAIN_TEST = """\
  - id: plain
    input: What is 2 + 2?
    assertions:
      - type: contains
        value: fixed answer
"""


def sandbox_workspace(folder: Path, suite: str, files: dict[str, str] | None = None) -> Workspace:
    """A workspace of the eval file `suite` (at SUITE) and `files`, every one stored."""
    write_files(folder, {SUITE: suite})
    workspace = imported_workspace(folder, name=folder.name)
    for path, text in (files or {}).items():
        WorkspaceFile.objects.update_or_create(
            workspace=workspace, path=path, defaults={"text": text}
        )
    return workspace


def run_case(workspace: Workspace, case_id: str, target: str = "mock") -> Run:
    """Run the case as stored, as an editor; the job runs at once in tests."""
    case = Case.objects.get(suite__workspace=workspace, case_id=case_id)
    name = f"erin-{workspace.pk}"
    account = User.objects.filter(username=name).first() or editor_of(workspace, name)
    run = start_run(
        access_of(workspace, "editor"), account, case.suite, [(case, case.document)], target
    )
    run.job.refresh_from_db()
    return run

"""A run's private folder, written from an allow-list: the suite's file holding only the cases
to run, the files it references inside the workspace, the app's own AgentV config; a home and
a temporary folder for AgentV (docs/runs.md, "The run folder"). The targets or providers file
is the CLI generation's (`generations/`).

The workspace folder is its own repository root (an empty `.git`), so AgentV looks no higher
for a config, a targets file or `.env`; AgentV's search for custom graders, assertions and
providers goes up to the file system's root, so a foreign `.agentv` above the folder refuses
the run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings

from ...models import Suite
from ..exports.files import ExportFolder
from ..exports.suite_texts import suite_file_text
from ..jobs.running import OperationRefused
from .references import RunFiles, run_files

# What the app writes as AgentV's project config when commands are off: no hooks, and the
# first config AgentV finds, so it reads no other (not even the one in its home).
RUN_CONFIG = "# Written by the app for this run only (docs/runs.md).\n{}\n"


class RunFolderRefused(OperationRefused):
    """The run needs something the sandbox refuses; the message names each place."""


def suite_run_files(
    suite: Suite, documents: list[dict[Any, Any]], *, writing: bool = True
) -> RunFiles:
    """The files a run of `documents` of `suite` gives AgentV, and why it may not start (the
    suite's own file only when `writing`). A file of cases another suite names
    (`tests: ./cases.yaml`, a folder of cases) runs with that suite's file, as AgentV reads
    it: never alone."""
    files = suite.workspace.file_texts()
    referrer = referring_suite(suite)
    suite_text: str | None
    if referrer is not None:
        files[suite.path] = suite_file_text(suite, documents)
        suite_path, header = referrer.path, referrer.document
        suite_text = referrer.source_text
        if suite_text is None and writing:
            suite_text = suite_file_text(referrer, [])
    else:
        suite_path, header = suite.path, suite.document
        files_of_cases = Suite.objects.filter(
            workspace=suite.workspace_id, referenced_by=suite.path
        ).order_by("path")
        if files_of_cases:
            # Run all of a suite whose cases live in other files: its file as stored, and
            # each of those files with its stored cases.
            for cases_file in files_of_cases:
                stored = list(
                    cases_file.cases.order_by("position").values_list("document", flat=True)
                )
                files[cases_file.path] = suite_file_text(cases_file, stored)
            suite_text = suite.source_text
            if suite_text is None and writing:
                suite_text = suite_file_text(suite, [])
        else:
            suite_text = suite_file_text(suite, documents) if writing else None
    return run_files(
        suite_path,
        suite_text,
        header,
        documents,
        files,
        cases_path=suite.path,
        allow_commands=settings.AGENTV_RUNS_ALLOW_COMMANDS,
    )


def referring_suite(suite: Suite) -> Suite | None:
    """The suite whose file names `suite`'s file of cases (`tests: ./cases.yaml`), or None."""
    if not suite.referenced_by:
        return None
    return Suite.objects.filter(workspace=suite.workspace_id, path=suite.referenced_by).first()


def write_run_folder(
    folder: Path,
    suite: Suite,
    documents: list[dict[Any, Any]],
    spelling: dict[str, str] | None = None,
) -> Path:
    """Write everything AgentV reads under `folder`; returns the suite file's path. Raises
    RunFolderRefused when the sandbox refuses the run. `spelling` holds the texts, by
    workspace path, that the run hands AgentV instead of the stored ones (the suite's file in
    a spelling the configured AgentV reads, `spellings.py`): files the sandbox already let in."""
    found = suite_run_files(suite, documents)
    refusal = found.refusal() or foreign_config_above(folder)
    if refusal:
        raise RunFolderRefused(refusal)
    for path, text in (spelling or {}).items():
        if path in found.files:
            found.files[path] = text
    files = ExportFolder(folder / "workspace")
    for path, text in found.files.items():
        files.target(path).write_text(text, encoding="utf-8")
    root = folder / "workspace"
    (root / ".git").mkdir(exist_ok=True)  # AgentV's repository root: it looks no higher
    if not settings.AGENTV_RUNS_ALLOW_COMMANDS or not (root / ".agentv" / "config.yaml").exists():
        (root / ".agentv").mkdir(exist_ok=True)
        (root / ".agentv" / "config.yaml").write_text(RUN_CONFIG, encoding="utf-8")
    for private in ("home", "tmp"):
        (folder / private).mkdir(mode=0o700, exist_ok=True)
    referrer = referring_suite(suite)
    return files.target(suite.path if referrer is None else referrer.path)


def foreign_config_above(folder: Path) -> str:
    """Why AgentV run in `folder` would find files the app did not write ("" when not): an
    `.agentv` folder in a parent folder holds custom graders or providers AgentV loads."""
    for parent in folder.resolve().parents:
        if (parent / ".agentv").exists():
            return (
                f"{parent / '.agentv'} exists above the run's folder; AgentV would load custom "
                "graders or providers from it. The operator must remove it or set TMPDIR of "
                "the worker elsewhere."
            )
    return ""

"""The run folder holds only what the suite references inside the workspace; references that
leave it, and files AgentV would take as its own configuration, are refused before the run
(docs/runs.md, "The run folder")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evals_app.models import Case, Run, RunResult
from evals_app.services.runs.run_folder import (
    RunFolderRefused,
    foreign_config_above,
    suite_run_files,
    write_run_folder,
)
from evals_app.services.runs.starting import RunRefused
from tests.factories import imported_workspace, write_files

from .sandbox import PLAIN_TEST, SUITE, run_case, sandbox_workspace

pytestmark = pytest.mark.django_db

OUTSIDE = "A run reads only files inside the workspace; these references leave it"


def _files_of_run(workspace: Any, case_id: str = "plain") -> dict[str, str]:
    case = Case.objects.get(suite__workspace=workspace, case_id=case_id)
    return suite_run_files(case.suite, [case.document]).files


def test_the_folder_holds_the_suite_and_only_the_files_it_references(tmp_path: Path) -> None:
    suite = (
        "tests:\n"
        "  - id: plain\n"
        "    input:\n"
        "      - role: user\n"
        "        content:\n"
        "          - type: file\n"
        "            value: ./attached.md\n"
        "    expected_output:\n"
        "      - role: assistant\n"
        "        content:\n"
        "          - type: file\n"
        "            value: snippets/answer.md\n"
        "    assertions:\n"
        "      - type: llm-grader\n"
        "        prompt: ../judges/judge.md\n"
    )
    files = {
        "evals/attached.md": "Attached.",
        "snippets/answer.md": "Four.",  # found by searching upward, as AgentV does
        "judges/judge.md": "Judge {{ output }}",
        "unrelated/notes.md": "Not referenced.",
    }
    workspace = sandbox_workspace(tmp_path, suite, files)
    assert sorted(_files_of_run(workspace)) == sorted(
        [SUITE, "evals/attached.md", "snippets/answer.md", "judges/judge.md"]
    )


def test_a_code_graders_script_goes_with_the_run_only_when_commands_are_allowed(
    tmp_path: Path, settings: Any
) -> None:
    suite = (
        "tests:\n"
        "  - id: plain\n"
        "    input: Hi\n"
        "    assertions:\n"
        "      - type: code-grader\n"
        "        command: [python3, check.py]\n"
        "        cwd: ../scripts\n"
    )
    workspace = sandbox_workspace(tmp_path, suite, {"scripts/check.py": "print('{}')\n"})
    settings.AGENTV_RUNS_ALLOW_COMMANDS = True
    assert "scripts/check.py" in _files_of_run(workspace)


def test_files_agentv_reads_on_its_own_never_reach_it(tmp_path: Path) -> None:
    """A config in code, `.env`, custom graders, assertions and providers, targets files: in
    the workspace but not referenced, they are not in the run's folder, and nothing runs."""
    canary = tmp_path / "canary"
    write = f"import fs from 'node:fs'; fs.writeFileSync({str(canary)!r}, '');\n"
    hostile = {
        "agentv.config.ts": write,
        "agentv.config.mjs": write,
        ".env": f"NODE_OPTIONS=--import {canary}.mjs\n",
        ".agentv/graders/pwn.mjs": write,
        ".agentv/assertions/pwn.mjs": write,
        ".agentv/providers/pwn.mjs": write,
        "targets.yaml": "targets:\n  - name: mock\n    provider: cli\n    command: touch x\n",
    }
    workspace = sandbox_workspace(tmp_path / "workspace", "tests:\n" + PLAIN_TEST, hostile)
    assert sorted(_files_of_run(workspace)) == [SUITE]
    run = run_case(workspace, "plain")
    assert run.results.get().verdict == RunResult.Verdict.PASS
    assert not canary.exists()


@pytest.mark.parametrize(
    "reference", [".env", "agentv.config.ts", ".agentv/graders/pwn.mjs", "targets.yaml"]
)
def test_a_reference_to_a_file_agentv_takes_as_its_own_is_refused(
    tmp_path: Path, reference: str
) -> None:
    suite = (
        "tests:\n"
        "  - id: plain\n"
        "    input:\n"
        "      - role: user\n"
        "        content:\n"
        "          - type: file\n"
        f"            value: ../{reference}\n"
        "    assertions:\n"
        "      - type: contains\n"
        "        value: fixed\n"
    )
    workspace = sandbox_workspace(tmp_path, suite, {reference: "x"})
    with pytest.raises(RunRefused) as refused:
        run_case(workspace, "plain")
    assert f"`{reference}` is a file AgentV reads as its own configuration" in str(refused.value)
    assert not Run.objects.exists()


# Each place AgentV reads a path, with a reference leaving the workspace.
OUTSIDE_REFERENCES = [
    ("workspace: {path}\ntests:\n", "the suite › workspace"),
    ("tests:\n  - id: t\n    input: Hi\n    workspace: {path}\n", "t › workspace"),
    (
        "tests:\n  - id: t\n    input:\n      - role: user\n        content:\n"
        "          - type: file\n            value: {path}\n",
        "t › input #1 › content #1 › value",
    ),
    (
        "tests:\n  - id: t\n    input: Hi\n    assertions:\n      - type: llm-grader\n"
        "        prompt: {path}\n",
        "t › assertions #1 › prompt",
    ),
    (
        "tests:\n  - id: t\n    input: Hi\n    assertions:\n      - include: {path}\n",
        "t › assertions #1 › include",
    ),
]


@pytest.mark.parametrize(("suite", "place"), OUTSIDE_REFERENCES)
def test_a_reference_outside_the_workspace_is_refused_alike_whether_or_not_it_exists(
    tmp_path: Path, suite: str, place: str
) -> None:
    existing = tmp_path / "exists.yaml"
    existing.write_text("hooks: {}\n", encoding="utf-8")
    references = [
        str(existing),
        str(tmp_path / "missing.yaml"),
        "../../exists.yaml",
        "../../missing.yaml",
        f"file://{existing}",
    ]
    messages = []
    for index, reference in enumerate(references):
        folder = tmp_path / f"workspace-{index}"
        workspace = sandbox_workspace(folder, suite.format(path=reference) + PLAIN_TEST)
        case_id = "t" if "id: t" in suite else "plain"
        with pytest.raises(RunRefused) as refused:
            run_case(workspace, case_id)
        message = str(refused.value)
        assert message.startswith(OUTSIDE), message
        assert f"{place}: `{reference}`" in message
        messages.append(message.replace(reference, "REFERENCE"))
    # The file's existence changes nothing of what is said.
    assert len(set(messages)) == 1
    assert not Run.objects.exists()


CASE = """\
id: {id}
input: What is 2 + 2?
assertions:
  - type: contains
    value: fixed answer
"""


@pytest.mark.parametrize(
    ("reference", "files"),
    [
        (
            "./cases.yaml",
            {"evals/cases.yaml": "- " + CASE.format(id="first").replace("\n", "\n  ")},
        ),
        ("./cases/", {"evals/cases/first/case.yaml": CASE.format(id="first")}),
    ],
)
def test_a_file_of_cases_runs_with_the_suite_that_names_it(
    tmp_path: Path, reference: str, files: dict[str, str]
) -> None:
    folder = write_files(tmp_path, {SUITE: f"description: Cases elsewhere.\ntests: {reference}\n"})
    write_files(folder, files)
    workspace = imported_workspace(folder, name="cases elsewhere")
    run = run_case(workspace, "first")
    result = run.results.get()
    assert (result.test_id, result.verdict) == ("first", RunResult.Verdict.PASS), result.error


def test_an_agentv_folder_above_the_run_folder_refuses_the_run(tmp_path: Path) -> None:
    """AgentV looks for custom graders and providers up to the file system's root."""
    (tmp_path / ".agentv" / "graders").mkdir(parents=True)
    run_folder = tmp_path / "runs" / "agentv-run-1"
    run_folder.mkdir(parents=True)
    assert f"{tmp_path / '.agentv'} exists above the run's folder" in foreign_config_above(
        run_folder
    )
    assert foreign_config_above(tmp_path / "runs") != ""
    assert foreign_config_above(Path("/")) == ""


def test_the_worker_refuses_what_changed_after_the_run_was_asked_for(tmp_path: Path) -> None:
    """A hook added while the run waited in the queue: the worker writes nothing, says why."""
    workspace = sandbox_workspace(
        tmp_path / "workspace",
        "tests:\n" + PLAIN_TEST,
        {".agentv/config.yaml": "hooks:\n  before_session: touch x\n"},
    )
    case = Case.objects.get(suite__workspace=workspace, case_id="plain")
    folder = tmp_path / "run"
    folder.mkdir()
    with pytest.raises(RunFolderRefused, match=r"\.agentv/config\.yaml › hooks: starts a program"):
        write_run_folder(folder, case.suite, [case.document])
    assert list(folder.iterdir()) == []

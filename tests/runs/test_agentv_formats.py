"""Which AgentV reads which format (the table the adapters use to choose a spelling), and
the Run controls: enabled for every format, disabled with the reason for what the
operator's settings refuse (docs/runs.md)."""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from evals_app.models import Membership, Suite, Workspace
from evals_app.services.runs.agentv_cli import forget_agentv_status
from evals_app.services.runs.formats import EVAL_FORMATS, eval_format_of, format_problem
from evals_app.services.runs.starting import run_unavailable
from tests.factories import imported_workspace, member, write_files

from .conftest import access_of, case_named

TODAY = 'prompts: ["{{ input }}"]\ntests:\n  - id: today\n    vars:\n      input: What is 2 + 2?\n'
FEBRUARY = "tests:\n  - id: february\n    input: What is 2 + 2?\n    criteria: Says four.\n"
EVALCASES = "evalcases:\n  - id: old\n    input: What is 2 + 2?\n    criteria: Says four.\n"
ONE_DAY = "cases:\n  - id: one-day\n    input: What is 2 + 2?\n    criteria: Says four.\n"


@pytest.fixture(autouse=True)
def asked_again() -> Iterator[None]:
    forget_agentv_status()
    yield
    forget_agentv_status()


def newer_agentv(folder: Path, settings: Any, version: str = "5.3.1") -> None:
    """AGENTV_COMMAND is a program that answers `--version` as a newer AgentV would."""
    program = folder / "newer-agentv"
    program.write_text(f"#!/bin/sh\necho {version}\n", encoding="utf-8")
    program.chmod(0o755)
    settings.AGENTV_COMMAND = str(program)


def workspace_with(folder: Path, files: dict[str, str]) -> Workspace:
    write_files(folder / "repository", files)
    return imported_workspace(folder / "repository")


def suite_at(workspace: Workspace, path: str) -> Suite:
    return Suite.objects.get(workspace=workspace, path=path)


@pytest.mark.parametrize(
    ("version", "eval_format", "verdict"),
    [
        ("4.42.4", "evalcases", "runs"),
        ("4.42.4", "eval_cases", "runs"),
        ("4.42.4", "cases", "no release"),
        ("4.42.4", "tests", "runs"),
        ("4.42.4", "prompts", "too old"),
        ("2.6.1", "evalcases", "runs"),
        ("2.6.1", "eval_cases", "too old"),
        ("2.6.1", "tests", "too old"),
        ("5.0.0-next.1", "tests", "runs"),
        ("5.0.0-next.1", "prompts", "too old"),
        ("5.1.0-next.1", "tests", "no longer"),
        ("5.1.0-next.1", "prompts", "runs"),
        ("5.3.0-next.1", "evalcases", "runs"),
        ("5.3.0-next.1", "eval_cases", "runs"),
        ("5.3.1-next.1", "evalcases", "no longer"),
        ("5.3.1", "eval_cases", "no longer"),
        ("5.3.1", "cases", "no release"),
        ("5.3.1", "prompts", "runs"),
    ],
)
def test_which_agentv_runs_which_format(version: str, eval_format: str, verdict: str) -> None:
    problem = format_problem(version, EVAL_FORMATS[eval_format])
    starts = {
        "runs": "",
        "too old": f"AgentV {version} is too old for this suite's format",
        "no longer": f"AgentV {version} no longer reads this suite's format",
        "no release": "No AgentV release reads this suite's format",
    }
    assert problem.startswith(starts[verdict]) and bool(problem) == (verdict != "runs")


def test_too_old_names_the_release_needed_and_how_to_get_it() -> None:
    assert format_problem("4.42.4", EVAL_FORMATS["prompts"]) == (
        "AgentV 4.42.4 is too old for this suite's format (`prompts` × `vars`, 2026-07 and "
        "later): it needs 5.1.0 or newer — set AGENTV_COMMAND to a newer AgentV."
    )


def test_no_longer_read_names_the_last_release_and_the_upgrade() -> None:
    assert format_problem("5.3.1", EVAL_FORMATS["evalcases"]) == (
        "AgentV 5.3.1 no longer reads this suite's format (`evalcases` lists, 2025-11 to "
        "2026-02); 5.3.0 was the last release that did — upgrade the suite (Upgrade to "
        "today's format, on the suite page), or point AGENTV_COMMAND at an older AgentV."
    )


def test_a_file_of_cases_without_a_list_is_left_to_agentvs_own_reasons() -> None:
    assert format_problem("4.42.4", None) == ""


@pytest.mark.django_db
def test_a_suites_format_is_its_list_of_cases_and_whether_it_has_prompts(tmp_path: Path) -> None:
    workspace = workspace_with(
        tmp_path,
        {"today.eval.yaml": TODAY, "february.eval.yaml": FEBRUARY, "old.eval.yaml": EVALCASES},
    )
    formats = {suite.path: eval_format_of(suite) for suite in workspace.suites.all()}
    assert formats == {
        "today.eval.yaml": EVAL_FORMATS["prompts"],
        "february.eval.yaml": EVAL_FORMATS["tests"],
        "old.eval.yaml": EVAL_FORMATS["evalcases"],
    }


@pytest.mark.django_db
def test_check_says_nothing_of_formats_every_suite_runs(tmp_path: Path, settings: Any) -> None:
    workspace_with(tmp_path, {"today.eval.yaml": TODAY, "one-day.eval.yaml": ONE_DAY})
    settings.AGENTV_RUNS_ENABLED = True
    out = StringIO()
    call_command("check", "--database", "default", stdout=out, stderr=out)
    assert "too old" not in out.getvalue()
    assert "today.eval.yaml" not in out.getvalue()


def editor_client(workspace: Workspace) -> Client:
    client = Client()
    client.force_login(member(workspace, Membership.Role.EDITOR, username="edna"))
    return client


@pytest.mark.django_db
def test_the_editor_runs_todays_format_with_the_pinned_agentv(tmp_path: Path) -> None:
    workspace = workspace_with(tmp_path, {"today.eval.yaml": TODAY})
    case = case_named(workspace, "today")
    url = f"/w/{workspace.slug}/suites/{case.suite.pk}/cases/{case.pk}/"
    html = editor_client(workspace).get(url).content.decode()
    assert 'hx-swap="outerHTML">Run</button>' in html
    assert "run-unavailable" not in html


@pytest.mark.django_db
def test_an_unreadable_targets_file_disables_run_before_the_click(
    tmp_path: Path, settings: Any
) -> None:
    workspace = workspace_with(tmp_path, {"old.eval.yaml": EVALCASES})
    targets = tmp_path / "targets.yaml"
    targets.write_text("providers: []\n", encoding="utf-8")
    settings.AGENTV_TARGETS_FILE = str(targets)
    suite = suite_at(workspace, "old.eval.yaml")
    reason = run_unavailable(access_of(workspace, Membership.Role.EDITOR), suite)
    assert reason.startswith(f"AGENTV_TARGETS_FILE {targets}: expected `targets:`")
    settings.AGENTV_TARGETS_FILE = ""
    assert run_unavailable(access_of(workspace, Membership.Role.EDITOR), suite) == ""


@pytest.mark.django_db
def test_the_suite_page_runs_an_older_format_with_a_newer_agentv(
    tmp_path: Path, settings: Any
) -> None:
    workspace = workspace_with(tmp_path, {"old.eval.yaml": EVALCASES})
    newer_agentv(tmp_path, settings)
    suite = suite_at(workspace, "old.eval.yaml")
    html = editor_client(workspace).get(f"/w/{workspace.slug}/suites/{suite.pk}/").content.decode()
    assert '<span id="run-all-label">Run all 1 case</span></button>' in html
    assert "suite-run-unavailable" not in html

"""Runs of a suite: all or the selected cases, the last run's pass rate, the "last run"
column, a case's runs in its history, and how two revisions' verdicts differ."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from evals_app.models import Case, Job, Membership, Run, RunResult, Workspace
from evals_app.services.cases.editing import save_case
from tests.factories import member

from .conftest import workspace_of

pytestmark = pytest.mark.django_db

PASSING = """\
    assertions:
      - type: contains
        value: fixed answer
"""
FAILING = """\
    assertions:
      - type: contains
        value: nowhere in the answer
"""


def suite_of_twenty(folder: Path) -> Workspace:
    """Twenty tests, the first five of which fail with the mock target."""
    tests = "".join(
        f"  - id: case-{number:02}\n    input: Question {number}\n"
        + (FAILING if number <= 5 else PASSING)
        for number in range(1, 21)
    )
    return workspace_of(folder, tests)


def editor_client(workspace: Workspace) -> Client:
    client = Client()
    client.force_login(member(workspace, Membership.Role.EDITOR, username="eddie"))
    return client


def suite_url(workspace: Workspace, suffix: str = "") -> str:
    suite = workspace.suites.get()
    return f"/w/{workspace.slug}/suites/{suite.pk}/{suffix}"


def test_run_all_runs_twenty_cases_and_the_suite_page_shows_the_pass_rate(
    tmp_path: Path,
) -> None:
    workspace = suite_of_twenty(tmp_path)
    client = editor_client(workspace)
    response = client.post(suite_url(workspace, "run/"), {"scope": "all", "run_target": "mock"})
    run = Run.objects.get()
    assert response.url == run.get_absolute_url()  # type: ignore[attr-defined]
    assert run.job.state == Job.State.DONE
    assert run.results.count() == 20
    assert run.results.filter(verdict=RunResult.Verdict.PASS).count() == 15
    html = client.get(suite_url(workspace)).content.decode()
    assert "15 of 20 passed (75%)</a> with mock" in html
    assert html.count('<span class="verdict">Fail</span>') == 5
    assert html.count('<span class="verdict">Pass</span>') == 15


def test_run_selected_runs_only_the_chosen_cases(tmp_path: Path) -> None:
    workspace = suite_of_twenty(tmp_path)
    chosen = Case.objects.filter(case_id__in=["case-01", "case-20"])
    editor_client(workspace).post(
        suite_url(workspace, "run/"),
        {"scope": "selected", "cases": [str(case.pk) for case in chosen], "run_target": "mock"},
    )
    run = Run.objects.get()
    assert sorted(run.results.values_list("test_id", "verdict")) == [
        ("case-01", "fail"),
        ("case-20", "pass"),
    ]


def test_a_viewer_cannot_run_the_suite(tmp_path: Path) -> None:
    workspace = suite_of_twenty(tmp_path)
    client = Client()
    client.force_login(member(workspace, Membership.Role.VIEWER, username="vera"))
    response = client.post(
        suite_url(workspace, "run/"), {"scope": "all", "run_target": "mock"}, follow=True
    )
    assert "Not run: Only owners and editors of the workspace may run tests." in (
        response.content.decode()
    )
    assert not Run.objects.exists()


def test_history_and_compare_show_how_an_edit_changed_the_verdict(tmp_path: Path) -> None:
    workspace = workspace_of(tmp_path, "  - id: add\n    input: What is 2 + 2?\n" + PASSING)
    client = editor_client(workspace)
    case = Case.objects.get()
    editor = f"/w/{workspace.slug}/suites/{case.suite.pk}/cases/{case.pk}/"
    account = Membership.objects.get(role="editor").user

    def save_and_run(assertion_value: str) -> None:
        current = Case.objects.get(pk=case.pk)
        document = {**current.document}
        document["assertions"] = [{"type": "contains", "value": assertion_value}]
        save_case(current, document, current.version, account)
        client.post(suite_url(workspace, "run/"), {"scope": "all", "run_target": "mock"})

    save_and_run("fixed")
    save_and_run("something else")
    first, second = RunResult.objects.order_by("pk")
    assert (first.revision_number, first.verdict) == (2, "pass")
    assert (second.revision_number, second.verdict) == (3, "fail")
    history = client.get(f"{editor}history/").content.decode()
    assert "Runs with AgentV" in history
    assert f">Run {second.run.pk}</a>" in history and f">Run {first.run.pk}</a>" in history
    compare = client.get(f"{editor}compare/?from=2&to=3").content.decode()
    assert "(this edit turned it from pass to fail)" in compare

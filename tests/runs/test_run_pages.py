"""The editor's Run: who sees it, what a run shows, a refusal's reason, cancelling."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from evals_app.models import Case, Job, Membership, Run
from evals_app.services.runs.targets import MOCK_ANSWER
from tests.factories import member
from tests.html_forms import form_fields

from .conftest import agentv_label, case_named, workspace_of

pytestmark = pytest.mark.django_db

TESTS = """\
  - id: add
    input: What is 2 + 2?
    assertions:
      - type: contains
        value: fixed answer
"""


def editor_url(case: Case, suffix: str = "") -> str:
    return f"/w/{case.suite.workspace.slug}/suites/{case.suite.pk}/cases/{case.pk}/{suffix}"


def client_of(case: Case, role: str) -> Client:
    client = Client(enforce_csrf_checks=False)
    client.force_login(member(case.suite.workspace, role, username=f"{role}-person"))
    return client


@pytest.fixture
def case(tmp_path: Path) -> Case:
    return case_named(workspace_of(tmp_path, TESTS), "add")


def test_an_editor_sees_run_with_the_targets_and_agentv_version(case: Case) -> None:
    html = client_of(case, Membership.Role.EDITOR).get(editor_url(case)).content.decode()
    assert 'id="run-button"' in html
    assert '<option value="mock">mock</option>' in html
    assert agentv_label() in html


def test_a_viewer_is_told_why_there_is_no_run(case: Case) -> None:
    html = client_of(case, Membership.Role.VIEWER).get(editor_url(case)).content.decode()
    assert 'id="run-button"' not in html
    assert "Run: Only owners and editors of the workspace may run tests." in html


def test_the_editor_is_told_when_runs_are_off(case: Case, settings: Any) -> None:
    settings.AGENTV_RUNS_ENABLED = False
    html = client_of(case, Membership.Role.EDITOR).get(editor_url(case)).content.decode()
    assert 'id="run-button"' not in html
    assert "Runs are turned off on this server" in html


def test_run_shows_the_answer_and_grades_of_the_unsaved_draft(case: Case) -> None:
    client = client_of(case, Membership.Role.EDITOR)
    form = form_fields(client.get(editor_url(case)).content.decode(), "case-form")
    response = client.post(
        editor_url(case, "run/"), {**form, "run_target": "mock"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="run-panel"' in html
    assert f"Done: 1 of 1 passed · {agentv_label()}" in html
    assert MOCK_ANSWER in html
    assert "contains" in html and "Output contains &quot;fixed answer&quot;" in html
    # The editor shows the case's latest run when it opens again.
    again = client.get(editor_url(case)).content.decode()
    assert MOCK_ANSWER in again


def test_a_viewer_posting_run_gets_the_reason(case: Case) -> None:
    client = client_of(case, Membership.Role.VIEWER)
    form = form_fields(client.get(editor_url(case)).content.decode(), "case-form")
    response = client.post(editor_url(case, "run/"), {**form, "run_target": "mock"})
    assert response.status_code == 200
    assert "Only owners and editors of the workspace may run tests." in response.content.decode()
    assert not Run.objects.exists()


def test_the_run_page_lists_the_results_for_any_member(case: Case) -> None:
    client = client_of(case, Membership.Role.EDITOR)
    form = form_fields(client.get(editor_url(case)).content.decode(), "case-form")
    client.post(editor_url(case, "run/"), {**form, "run_target": "mock"})
    run = Run.objects.get()
    viewer = client_of(case, Membership.Role.VIEWER)
    html = viewer.get(run.get_absolute_url()).content.decode()
    assert f"Run {run.pk} of evals/math.eval.yaml" in html
    assert MOCK_ANSWER in html
    assert "Cancel the run" not in html


def test_a_queued_run_is_cancelled_at_once(case: Case, tasks_in_the_database: Path) -> None:
    client = client_of(case, Membership.Role.EDITOR)
    form = form_fields(client.get(editor_url(case)).content.decode(), "case-form")
    client.post(editor_url(case, "run/"), {**form, "run_target": "mock"})
    run = Run.objects.get()
    assert run.job.state == Job.State.QUEUED  # no worker in this test
    response = client.post(f"{run.get_absolute_url()}cancel/")
    assert response.status_code == 302
    run.job.refresh_from_db()
    assert run.job.state == Job.State.CANCELLED
    assert "Cancelled; nothing was kept" in client.get(run.get_absolute_url()).content.decode()

"""Runs through the API: run a case (or a draft of it) with AgentV, read the run."""

from __future__ import annotations

from typing import Any

import pytest

from evals_app.models import Run
from evals_app.services.runs.agentv_cli import agentv_status
from evals_app.services.runs.formats import EVAL_FORMATS
from evals_app.services.runs.generations import generation_of
from evals_app.services.runs.targets import MOCK_ANSWER
from tests.api.api_calls import Team, make_team

pytestmark = pytest.mark.django_db

DRAFT = {
    "id": "first",
    "input": "What is 2+2?",
    "assertions": [{"type": "contains", "value": "fixed answer"}],
}


@pytest.fixture
def team(settings: Any) -> Team:
    settings.AGENTV_RUNS_ENABLED = True
    settings.AGENTV_TARGETS_FILE = ""
    return make_team()


def test_an_editor_runs_a_draft_and_reads_its_answer_and_grades(team: Team) -> None:
    editor = team.as_role("editor")
    response = editor.post(
        "/workspaces/team-evals/case/run",
        {"target": "mock", "document": DRAFT},
        **team.case_query(),
    )
    assert response.status_code == 202
    run_id = response.json()["id"]
    run = editor.get(f"/workspaces/team-evals/runs/{run_id}").json()
    assert (run["state"], run["target"]) == ("done", "mock")
    assert run["agentv_version"] == agentv_status().version
    [result] = run["results"]
    assert (result["id"], result["verdict"], result["answers"]) == ("first", "pass", [MOCK_ANSWER])
    assert result["graders"][0]["assertions"][0]["text"] == 'Output contains "fixed answer"'
    team.first.refresh_from_db()
    assert "assertions" not in team.first.document  # the draft was not saved


def test_a_test_agentv_skips_comes_back_with_agentvs_reason(team: Team) -> None:
    editor = team.as_role("editor")
    ungraded = {"id": "first", "input": "What is 2+2?"}  # nothing to grade it by
    response = editor.post(
        "/workspaces/team-evals/case/run",
        {"target": "mock", "document": ungraded},
        **team.case_query(),
    )
    run = editor.get(f"/workspaces/team-evals/runs/{response.json()['id']}").json()
    [result] = run["results"]
    assert result["verdict"] == "skipped"
    assert result["error"].startswith("Skipping incomplete test: first.")


def test_a_viewer_cannot_run_but_can_read_runs(team: Team) -> None:
    response = team.as_role("viewer").post(
        "/workspaces/team-evals/case/run", {}, **team.case_query()
    )
    assert response.status_code == 403
    assert not Run.objects.exists()


def test_a_refused_run_says_why(team: Team, settings: Any) -> None:
    settings.AGENTV_RUNS_ENABLED = False
    response = team.as_role("owner").post(
        "/workspaces/team-evals/case/run", {"target": "mock"}, **team.case_query()
    )
    assert response.status_code == 422
    assert "AGENTV_RUNS_ENABLED" in response.json()["message"]


def test_a_run_of_another_workspace_is_not_found(team: Team) -> None:
    response = team.as_role("viewer").get("/workspaces/team-evals/runs/999")
    assert response.status_code == 404
    assert response.json() == {"message": "No run 999 in Team evals."}


def test_a_run_of_a_format_agentv_does_not_read_runs_as_it_reads_it(team: Team) -> None:
    version = agentv_status().version
    if generation_of(version).reads(EVAL_FORMATS["prompts"]):  # AgentV 5: an older file
        team.suite.document = {"tests": [None, None]}
        document: dict[str, Any] = {"id": "first", "input": "Hi", "criteria": "Greets back"}
        spelling = "today's format, as Upgrade writes it"
    else:  # AgentV 4: today's file
        team.suite.document = {"prompts": ["{{ input }}"], "tests": [None, None]}
        document = {"id": "first", "vars": {"input": "Hi"}, "assert": ["Greets back"]}
        spelling = "`tests` with `input`, one test per prompt and value"
    team.suite.cases_key = "tests"
    team.suite.save()
    editor = team.as_role("editor")
    response = editor.post(
        "/workspaces/team-evals/case/run",
        {"target": "mock", "document": document},
        **team.case_query(),
    )
    assert response.status_code == 202
    run = editor.get(f"/workspaces/team-evals/runs/{response.json()['id']}").json()
    assert run["spelling"] == (
        f"Run as AgentV {version} reads it: {spelling}. The suite's file is unchanged."
    )
    assert run["agentv_exit_code"] is not None

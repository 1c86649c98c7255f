"""Review steps through the API: the same rules and roles as in the editor."""

from __future__ import annotations

from typing import Any

import pytest

from evals_app.models import Case, ReviewEvent
from evals_app.services.cases.editing import save_case
from tests.api.api_calls import Team, make_team

pytestmark = pytest.mark.django_db
REVIEW = "/workspaces/team-evals/case/review"


@pytest.fixture
def team() -> Team:
    return make_team()


def step(team: Team, role: str, action: str, case: Case | None = None, **extra: Any) -> Any:
    return team.as_role(role).post(REVIEW, {"action": action, **extra}, **team.case_query(case))


def test_an_editor_submits_a_draft_for_review_with_a_note(team: Team) -> None:
    response = step(team, "editor", "submit", note="Ready.")

    assert response.status_code == 200
    assert response.json() == {"status": "in_review"}
    event = ReviewEvent.objects.get(case=team.first)
    assert (event.action, event.note, event.actor.username) == (
        "submitted",
        "Ready.",
        "editor-team-evals",
    )


@pytest.mark.parametrize(
    ("action", "status"), [("approve", "approved"), ("request_changes", "changes_requested")]
)
def test_a_reviewer_approves_or_requests_changes(team: Team, action: str, status: str) -> None:
    response = step(team, "reviewer", action, team.second)

    assert response.status_code == 200
    assert response.json() == {"status": status}
    assert Case.objects.get(pk=team.second.pk).status == status


def test_a_step_the_status_does_not_allow_is_refused_with_the_reason(team: Team) -> None:
    response = step(team, "reviewer", "approve")  # the first case is a draft

    assert response.status_code == 409
    assert response.json() == {"message": "first is draft; it cannot be approved."}


def test_nobody_approves_a_case_they_changed(team: Team) -> None:
    owner = team.workspace.memberships.get(role="owner").user
    changed = save_case(team.second, {**team.second.document, "outcome": "x"}, 1, owner)

    response = step(team, "owner", "approve", changed)

    assert response.status_code == 409
    assert "someone else approves it" in response.json()["message"]


@pytest.mark.parametrize(
    ("role", "action"),
    [
        ("reviewer", "submit"),
        ("viewer", "submit"),
        ("editor", "approve"),
        ("viewer", "approve"),
        ("editor", "request_changes"),
    ],
)
def test_a_role_that_does_not_allow_the_step_is_forbidden(
    team: Team, role: str, action: str
) -> None:
    response = step(team, role, action, team.second)

    assert response.status_code == 403
    assert Case.objects.get(pk=team.second.pk).status == "in_review"


@pytest.mark.parametrize(
    "body",
    [{"action": "merge"}, {"note": "no action"}, {"action": "approve", "note": ["a list"]}],
)
def test_an_unknown_step_is_bad_input(team: Team, body: dict[str, Any]) -> None:
    response = team.as_role("owner").post(REVIEW, body, **team.case_query(team.second))

    assert response.status_code == 400
    assert response.json()["message"].startswith("The request is not valid: body.step")

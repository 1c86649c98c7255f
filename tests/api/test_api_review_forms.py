"""Review scores, blind review and assignments through the API: the same rules and rights as
the pages."""

from __future__ import annotations

import pytest

from evals_app.models import ReviewAssignment, ReviewCriterion, ReviewRules, ReviewScore
from evals_app.services.review.criteria import add_criterion
from tests.api.api_calls import Team, make_team

pytestmark = pytest.mark.django_db
REVIEW = "/workspaces/team-evals/case/review"
REVIEWS = "/workspaces/team-evals/case/reviews"


@pytest.fixture
def team() -> Team:
    team = make_team()
    add_criterion(team.workspace, "Clear", ReviewCriterion.Kind.SCALE)
    return team


def test_a_reviewer_approves_with_scores_by_criterion_name(team: Team) -> None:
    response = team.as_role("reviewer").post(
        REVIEW, {"action": "approve", "scores": {"Clear": "4"}}, **team.case_query(team.second)
    )

    assert response.status_code == 200
    assert list(ReviewScore.objects.values_list("criterion__name", "value")) == [("Clear", "4")]


@pytest.mark.parametrize(
    ("scores", "message"),
    [({"Clarity": "4"}, "No review criterion named Clarity"), ({"Clear": "9"}, "not one of")],
)
def test_scores_the_form_does_not_take_are_refused(
    team: Team, scores: dict[str, str], message: str
) -> None:
    response = team.as_role("reviewer").post(
        REVIEW, {"action": "approve", "scores": scores}, **team.case_query(team.second)
    )

    assert response.status_code == 422
    assert message in response.json()["message"]
    assert not ReviewScore.objects.exists()


def test_the_reviews_of_a_case_are_read_with_their_scores(team: Team) -> None:
    query = team.case_query(team.second)
    team.as_role("reviewer").post(REVIEW, {"action": "approve", "scores": {"Clear": "3"}}, **query)

    response = team.as_role("viewer").get(REVIEWS, **query)

    assert response.json() == {
        "approvals_required": 1,
        "hidden": False,
        "reviews": [
            {"reviewer": "reviewer-team-evals", "decision": "approved", "scores": {"Clear": "3"}}
        ],
    }


def test_a_blind_reviewers_answer_holds_no_other_review(team: Team) -> None:
    ReviewRules.objects.create(workspace=team.workspace, required_approvals=2, blind=True)
    query = team.case_query(team.second)
    team.as_role("reviewer").post(REVIEW, {"action": "approve", "scores": {"Clear": "1"}}, **query)

    answer = team.as_role("owner").get(REVIEWS, **query).json()

    assert answer == {"approvals_required": 2, "hidden": True, "reviews": []}


def test_a_blind_reviewers_review_steps_hold_no_other_decision(team: Team) -> None:
    ReviewRules.objects.create(workspace=team.workspace, required_approvals=2, blind=True)
    query = team.case_query(team.second)
    team.as_role("reviewer").post(REVIEW, {"action": "approve", "scores": {"Clear": "1"}}, **query)
    steps = "/workspaces/team-evals/case/review-steps"

    blind = team.as_role("owner").get(steps, **query).json()
    team.as_role("owner").post(REVIEW, {"action": "approve", "scores": {"Clear": "2"}}, **query)
    seeing = team.as_role("owner").get(steps, **query).json()

    assert blind == {"items": [], "total": 0, "next": None}
    assert [(step["actor"], step["action"]) for step in seeing["items"]] == [
        ("reviewer-team-evals", "approved"),
        ("owner-team-evals", "approved"),
    ]


def test_an_owner_assigns_cases_and_the_reviewer_reads_their_queue(team: Team) -> None:
    response = team.as_role("owner").post(
        "/workspaces/team-evals/assignments",
        {
            "suite": team.suite.path,
            "cases": ["first", "second"],
            "reviewers": ["reviewer-team-evals"],
        },
    )
    queue = team.as_role("reviewer").get("/queue").json()

    assert response.json() == {"assigned": ["first", "second"]}
    assert (queue["total"], queue["reviewed"], queue["waiting"]) == (2, 0, 1)
    assert [case["id"] for case in queue["items"]] == ["first", "second"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"cases": ["nope"], "reviewers": ["reviewer-team-evals"]}, "No case nope"),
        ({"cases": ["first"], "reviewers": ["editor-team-evals"]}, "Not a reviewer here"),
    ],
)
def test_assignments_name_cases_and_reviewers_of_the_workspace(
    team: Team, body: dict[str, list[str]], message: str
) -> None:
    response = team.as_role("owner").post(
        "/workspaces/team-evals/assignments", {"suite": team.suite.path, **body}
    )

    assert response.status_code == 422
    assert message in response.json()["message"]
    assert not ReviewAssignment.objects.exists()

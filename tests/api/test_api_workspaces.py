"""`GET /api/v1/workspaces`: my workspaces and my role in each."""

from __future__ import annotations

import pytest

from tests.api.api_calls import ApiClient, Team, make_team
from tests.factories import admin, api_token, member, user, workspace

pytestmark = pytest.mark.django_db


@pytest.fixture
def team() -> Team:
    return make_team()


def test_lists_my_workspaces_with_my_role(team: Team) -> None:
    member(workspace("Another team"), "viewer")
    account = member(workspace("Alpha"), "owner", username="both")
    team.workspace.memberships.create(user=account, role="reviewer")

    response = ApiClient(api_token(account)).get("/workspaces")

    assert response.status_code == 200
    assert response.json() == {
        "items": [
            {"name": "Alpha", "slug": "alpha", "role": "owner"},
            {"name": "Team evals", "slug": "team-evals", "role": "reviewer"},
        ],
        "total": 2,
        "next": None,
    }


def test_someone_in_no_workspace_gets_an_empty_list(team: Team) -> None:
    response = ApiClient(api_token(user("loner", password=None))).get("/workspaces")

    assert response.status_code == 200
    assert response.json() == {"items": [], "total": 0, "next": None}


def test_superuser_sees_every_workspace_with_no_role_where_not_a_member(team: Team) -> None:
    response = ApiClient(api_token(admin())).get("/workspaces")

    assert response.json()["items"] == [{"name": "Team evals", "slug": "team-evals", "role": None}]


def test_lists_in_two_queries_after_the_token(team: Team, django_assert_max_num_queries) -> None:
    api = team.as_role("viewer")
    api.get("/workspaces")  # the token's last use is now recorded: no write below

    with django_assert_max_num_queries(3):  # the token, the count, the page
        api.get("/workspaces")

"""Every list of the API comes a page at a time, as the case list does (docs/api.md, "Lists,
a page at a time"): `limit` and `cursor` in; `items`, `total` and `next` out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from evals_app.api.pages import MAX_PAGE_SIZE
from evals_app.models import Job, ReviewAssignment, ReviewEvent, Suggestion
from tests import factories
from tests.api.api_calls import ApiClient, Team, make_team

pytestmark = pytest.mark.django_db

ITEMS = 5  # of each list, in the team below


@pytest.fixture
def team() -> Team:
    """The API tests' team, with five of everything the lists list for its owner."""
    team = make_team()
    owner = team.workspace.memberships.get(role="owner").user
    for number in range(ITEMS - 1):
        factories.suite(team.workspace, f"evals/more-{number}.yaml")
        factories.member(factories.workspace(f"Other {number}"), "viewer", f"v{number}")
        factories.workspace(f"Mine {number}").memberships.create(user=owner, role="editor")
    for number in range(ITEMS):
        factories.revision(team.first, owner, f"edit {number}")
        factories.review_event(team.first, owner, ReviewEvent.Action.SUBMITTED, f"step {number}")
        Suggestion.objects.create(
            case=team.first, author=owner, base={}, base_version=1, document={}, note=f"{number}"
        )
        Job.objects.create(kind=Job.Kind.EXPORT, requested_by=owner, workspace=team.workspace)
    Job.objects.filter(requested_by=owner).update(finished_at=timezone.now())
    queued = team.workspace.suites.get(path="evals/more-1.yaml")
    for number in range(ITEMS):
        assigned = factories.case(queued, f"queued-{number}")
        ReviewAssignment.objects.create(case=assigned, reviewer=owner, assigned_by=owner)
    return team


def case_query(team: Team) -> dict[str, str]:
    return team.case_query()


def no_query(team: Team) -> dict[str, str]:
    return {}


# Each list: its path, its query, and what names an item (in the list's order).
LISTS: dict[str, tuple[str, Callable[[Team], dict[str, str]], Callable[[Any], Any]]] = {
    "workspaces": ("/workspaces", no_query, lambda item: item["slug"]),
    "suites": ("/workspaces/team-evals/suites", no_query, lambda item: item["path"]),
    "revisions": ("/workspaces/team-evals/case/revisions", case_query, lambda i: i["number"]),
    "review steps": ("/workspaces/team-evals/case/review-steps", case_query, lambda i: i["note"]),
    "jobs": ("/jobs", no_query, lambda item: item["id"]),
    "suggestions": ("/workspaces/team-evals/case/suggestions", case_query, lambda i: i["note"]),
    "my queue": ("/queue", no_query, lambda item: item["id"]),
}


def every_page(api: ApiClient, path: str, query: dict[str, str]) -> list[dict[str, Any]]:
    pages = [api.get(path, **query, limit="2").json()]
    while pages[-1]["next"] is not None:
        pages.append(api.get(path, **query, limit="2", cursor=pages[-1]["next"]).json())
    return pages


@pytest.mark.parametrize("name", LISTS)
def test_the_pages_hold_every_item_once_in_order_with_the_total_on_each(
    team: Team, name: str
) -> None:
    path, query, key = LISTS[name]
    api = team.as_role("owner")
    whole = api.get(path, **query(team)).json()

    pages = every_page(api, path, query(team))

    assert len(whole["items"]) == ITEMS
    assert [len(page["items"]) for page in pages] == [2, 2, 1]
    assert [key(item) for page in pages for item in page["items"]] == [
        key(item) for item in whole["items"]
    ]
    assert {page["total"] for page in pages} == {ITEMS}


def test_revisions_come_newest_first_and_review_steps_oldest_first(team: Team) -> None:
    api = team.as_role("viewer")

    revisions = api.get("/workspaces/team-evals/case/revisions", **team.case_query()).json()
    steps = api.get("/workspaces/team-evals/case/review-steps", **team.case_query()).json()

    assert [item["number"] for item in revisions["items"]] == [5, 4, 3, 2, 1]
    assert revisions["items"][0]["summary"] == "edit 4"
    assert revisions["items"][0]["document"]["id"] == "first"
    assert [item["note"] for item in steps["items"]] == [f"step {n}" for n in range(ITEMS)]


@pytest.mark.parametrize("name", LISTS)
@pytest.mark.parametrize("asked", [{"cursor": "not-a-cursor"}, {"limit": "0"}])
def test_a_bad_cursor_or_page_size_is_bad_input(
    team: Team, name: str, asked: dict[str, str]
) -> None:
    path, query, _ = LISTS[name]

    response = team.as_role("owner").get(path, **query(team), **asked)

    assert response.status_code == 400
    assert response.json()["message"]


@pytest.mark.parametrize("name", LISTS)
def test_a_page_is_at_most_the_largest_size(team: Team, name: str) -> None:
    path, query, _ = LISTS[name]

    response = team.as_role("owner").get(path, **query(team), limit=str(MAX_PAGE_SIZE + 1))

    assert response.status_code == 400


def test_a_suite_says_how_many_cases_it_holds(team: Team) -> None:
    page = team.as_role("viewer").get("/workspaces/team-evals/suites").json()

    counted = {item["path"]: item["cases"] for item in page["items"]}
    assert counted["evals/review.yaml"] == 2
    assert counted["evals/more-0.yaml"] == 0


def test_a_job_list_holds_only_the_caller_s_jobs(team: Team) -> None:
    assert team.as_role("viewer").get("/jobs").json() == {"items": [], "total": 0, "next": None}

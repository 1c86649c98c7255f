"""The API's case list comes a page at a time: a page size with a default and a
maximum, the total on every page, and an opaque cursor that stays right while cases are added."""

from __future__ import annotations

from typing import Any

import pytest

from evals_app.api.cursors import encode_cursor
from evals_app.api.pages import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE
from evals_app.models import Suite
from tests.api.api_calls import ApiClient, Team, make_team
from tests.factories import case, suite

pytestmark = pytest.mark.django_db

LIST = "/workspaces/team-evals/cases"


@pytest.fixture
def team() -> Team:
    """The API tests' team, with a second suite of five cases (seven cases in all)."""
    team = make_team()
    other = suite(team.workspace, "evals/another.yaml")
    for number in range(5):
        case(other, f"another-{number}")
    return team


def all_pages(api: ApiClient, **query: str) -> list[dict[str, Any]]:
    """Every page of the list, following `next`."""
    pages = [api.get(LIST, **query).json()]
    while pages[-1]["next"] is not None:
        pages.append(api.get(LIST, **query, cursor=pages[-1]["next"]).json())
    return pages


def ids(page: dict[str, Any]) -> list[str]:
    return [item["id"] for item in page["items"]]


def test_the_pages_hold_every_case_once_in_order_with_the_total_on_each(team: Team) -> None:
    api = team.as_role("viewer")
    whole = api.get(LIST).json()

    pages = all_pages(api, limit="3")

    assert [len(page["items"]) for page in pages] == [3, 3, 1]
    assert [item for page in pages for item in page["items"]] == whole["items"]
    assert {page["total"] for page in pages} == {7}


def test_the_pages_of_one_suite_hold_its_cases_once_in_order(team: Team) -> None:
    api = team.as_role("viewer")

    pages = all_pages(api, suite="evals/another.yaml", limit="2")

    assert [ids(page) for page in pages] == [
        ["another-0", "another-1"],
        ["another-2", "another-3"],
        ["another-4"],
    ]
    assert {page["total"] for page in pages} == {5}


def test_a_page_is_the_default_size_unless_asked(team: Team) -> None:
    extra = Suite.objects.get(path="evals/another.yaml")
    for number in range(DEFAULT_PAGE_SIZE):
        case(extra, f"more-{number}")

    page = team.as_role("viewer").get(LIST).json()

    assert len(page["items"]) == DEFAULT_PAGE_SIZE
    assert page["total"] == DEFAULT_PAGE_SIZE + 7
    assert page["next"] is not None


@pytest.mark.parametrize("limit", ["0", str(MAX_PAGE_SIZE + 1), "-1", "many"])
def test_a_page_size_out_of_bounds_is_bad_input_naming_it(team: Team, limit: str) -> None:
    response = team.as_role("viewer").get(LIST, limit=limit)

    assert response.status_code == 400
    assert response.json()["message"].startswith("The request is not valid: query.limit:")


def test_the_filters_apply_to_the_pages_and_the_total(team: Team) -> None:
    pages = all_pages(team.as_role("viewer"), suite="evals/another.yaml", limit="2")

    assert [ids(page) for page in pages] == [
        ["another-0", "another-1"],
        ["another-2", "another-3"],
        ["another-4"],
    ]
    assert {page["total"] for page in pages} == {5}


def test_a_case_added_before_the_cursor_does_not_shift_the_next_page(team: Team) -> None:
    api = team.as_role("viewer")
    first = api.get(LIST, limit="3").json()
    # Sorts first of all (by suite path): an offset would send `another-2` again.
    case(suite(team.workspace, "evals/aaa.yaml"), "newcomer")

    second = api.get(LIST, limit="3", cursor=first["next"]).json()

    assert ids(first) == ["another-0", "another-1", "another-2"]
    assert ids(second) == ["another-3", "another-4", "first"]
    assert second["total"] == 8


def test_a_case_added_after_the_cursor_comes_on_a_later_page(team: Team) -> None:
    api = team.as_role("viewer")
    first = api.get(LIST, limit="6").json()
    case(team.suite, "third")

    second = api.get(LIST, limit="6", cursor=first["next"]).json()

    assert ids(second) == ["second", "third"]
    assert second["next"] is None


@pytest.mark.parametrize(
    "cursor",
    ["not-a-cursor", "!!!", encode_cursor(("evals/review.yaml",)), encode_cursor((1, "x"))],
    ids=["garbage", "not base64", "too short", "wrong types"],
)
def test_a_cursor_this_api_did_not_give_is_bad_input(team: Team, cursor: str) -> None:
    response = team.as_role("viewer").get(LIST, cursor=cursor)

    assert response.status_code == 400
    assert response.json() == {"message": "cursor: not a cursor from a previous page of this list."}


def test_listing_a_page_takes_a_fixed_number_of_queries(
    team: Team, django_assert_max_num_queries: Any
) -> None:
    api = team.as_role("viewer")
    cursor = api.get(LIST, limit="2").json()["next"]

    with django_assert_max_num_queries(6):
        api.get(LIST, limit="2", cursor=cursor)

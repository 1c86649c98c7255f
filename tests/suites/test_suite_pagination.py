"""The suite page lists a page of cases at a time, so a suite of thousands still opens at once."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, Suite
from evals_app.views.suites import CASES_PER_PAGE
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def long_suite(db: None) -> Suite:
    """A suite of 120 one-turn cases, case-000 … case-119."""
    suite = factories.suite(factories.workspace("Big"), "evals/big.yaml")
    for number in range(120):
        factories.case(suite, f"case-{number:03d}")
    return suite


def page(client: Client, suite: Suite, **query: str) -> str:
    response = client.get(reverse("suite_detail", args=[suite.workspace.slug, suite.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


def listed(html: str) -> list[str]:
    return re.findall(r'<th scope="row"><a href="[^"]+">([^<]+)</a>', html)


def test_the_first_page_lists_the_first_cases_and_links_to_the_next(
    signed_in: Client, long_suite: Suite
) -> None:
    html = page(signed_in, long_suite)

    assert listed(html) == [f"case-{n:03d}" for n in range(CASES_PER_PAGE)]
    assert f"Cases 1–{CASES_PER_PAGE} of 120" in html
    assert 'href="?page=2" rel="next"' in html
    assert 'rel="prev"' not in html


def test_the_last_page_lists_the_rest_and_links_back(signed_in: Client, long_suite: Suite) -> None:
    html = page(signed_in, long_suite, page="3")

    assert listed(html) == [f"case-{n:03d}" for n in range(2 * CASES_PER_PAGE, 120)]
    assert 'href="?page=2" rel="prev"' in html
    assert 'rel="next"' not in html


@pytest.mark.parametrize(("asked", "shown"), [("99", 3), ("nonsense", 1), ("0", 1)])
def test_a_page_number_out_of_range_shows_the_nearest_page(
    signed_in: Client, long_suite: Suite, asked: str, shown: int
) -> None:
    html = page(signed_in, long_suite, page=asked)

    assert listed(html)[0] == f"case-{(shown - 1) * CASES_PER_PAGE:03d}"


def test_a_search_counts_its_matches_over_every_page(signed_in: Client, long_suite: Suite) -> None:
    html = page(signed_in, long_suite, q="case-0")

    assert "100 of 120 cases shown: match" in html
    assert len(listed(html)) == CASES_PER_PAGE
    assert 'href="?q=case-0&amp;page=2" rel="next"' in html


def test_only_the_very_first_and_last_cases_cannot_move_up_or_down(
    signed_in: Client, long_suite: Suite
) -> None:
    first, last = long_suite.cases.get(position=0), long_suite.cases.get(position=119)
    end_of_page = long_suite.cases.get(position=CASES_PER_PAGE - 1)

    html = page(signed_in, long_suite) + page(signed_in, long_suite, page="3")

    assert f'id="move-up-{first.pk}" disabled' in html
    assert f'id="move-down-{last.pk}" disabled' in html
    assert f'id="move-down-{end_of_page.pk}">' in html


def test_moving_a_case_from_a_later_page_shows_that_page_again(
    signed_in: Client, long_suite: Suite
) -> None:
    case = long_suite.cases.get(position=CASES_PER_PAGE + 5)
    url = reverse("case_move", args=[long_suite.workspace.slug, long_suite.pk, case.pk])

    response = signed_in.post(url, {"direction": "up", "page": "2"}, HTTP_HX_REQUEST="true")

    assert listed(response.content.decode())[0] == f"case-{CASES_PER_PAGE:03d}"
    redirect = signed_in.post(url, {"direction": "up", "page": "2"})
    assert redirect["Location"].endswith("?page=2")


def test_each_rows_actions_post_to_the_cases_own_urls(signed_in: Client, long_suite: Suite) -> None:
    case: Case = long_suite.cases.get(position=3)
    html = page(signed_in, long_suite)

    for name in ("case_move", "case_duplicate", "case_delete"):
        url = reverse(name, args=[long_suite.workspace.slug, long_suite.pk, case.pk])
        assert f'action="{url}" hx-post="{url}"' in html, name

"""The workspace's search: every suite's matching cases, grouped by suite, a page at a time,
matching as the suite page's search does (docs/user-guide.md, "Searching")."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import Workspace
from evals_app.services.cases.workspace_search import search_workspace
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def team() -> Workspace:
    """Two suites: billing (refund-late, invoice) and support (refund-twice, login)."""
    workspace = factories.workspace("Team evals")
    billing = factories.suite(workspace, "evals/billing.yaml")
    factories.case(billing, "refund-late", ("user", "My refund is late."))
    factories.case(billing, "invoice", ("user", "Where is my invoice?"))
    support = factories.suite(workspace, "evals/support.yaml")
    factories.case(support, "refund-twice", ("user", "I was charged twice."))
    factories.case(support, "login", ("user", "I cannot log in to get my REFUND."))
    factories.suite(factories.workspace("Elsewhere"), "evals/billing.yaml")
    return workspace


def grouped(workspace: Workspace, query: str, per_page: int = 50) -> list[tuple[str, list[str]]]:
    search = search_workspace(workspace, query, None, per_page)
    return [(group.suite.path, [case.case_id for case in group.cases]) for group in search.groups]


def test_every_suite_is_searched_and_the_cases_are_grouped_by_suite(team: Workspace) -> None:
    assert grouped(team, "refund") == [
        ("evals/billing.yaml", ["refund-late"]),
        ("evals/support.yaml", ["refund-twice", "login"]),
    ]


def test_an_empty_query_searches_nothing(team: Workspace) -> None:
    search = search_workspace(team, "  ", None, 50)

    assert search.page is None and search.groups == []


def test_results_come_a_page_at_a_time(team: Workspace) -> None:
    second = search_workspace(team, "refund", "2", 2)

    assert second.page is not None and second.page.paginator.count == 3
    assert [(g.suite.path, [c.case_id for c in g.cases]) for g in second.groups] == [
        ("evals/support.yaml", ["login"])
    ]


def test_the_page_links_each_suite_and_case_and_says_how_many_match(team: Workspace) -> None:
    client = Client()
    client.force_login(factories.member(team, "viewer"))

    response = client.get(reverse("workspace_search", args=[team.slug]), {"q": "refund"})

    html = response.content.decode()
    assert response.status_code == 200
    assert "3 cases match “refund”." in html
    headings = re.findall(r'<h2 id="search-suite-\d+"><a [^>]*>([^<]+)</a></h2>', html)
    assert headings == ["evals/billing.yaml", "evals/support.yaml"]
    login = team.suites.get(path="evals/support.yaml").cases.get(case_id="login")
    assert reverse("case_editor", args=[team.slug, login.suite_id, login.pk]) in html


def test_the_workspace_page_has_the_search_box(team: Workspace) -> None:
    client = Client()
    client.force_login(factories.member(team, "viewer"))

    html = client.get(team.get_absolute_url()).content.decode()

    assert f'action="{reverse("workspace_search", args=[team.slug])}"' in html
    assert '<label for="workspace-search">Search every suite</label>' in html


def test_the_search_reads_a_page_in_a_bounded_number_of_queries(
    team: Workspace, django_assert_max_num_queries: object
) -> None:
    client = Client()
    client.force_login(factories.member(team, "viewer"))

    with django_assert_max_num_queries(12):  # type: ignore[operator]
        client.get(reverse("workspace_search", args=[team.slug]), {"q": "e"})


def test_each_case_found_by_its_text_shows_the_text_it_matched(team: Workspace) -> None:
    search = search_workspace(team, "refund", None, 50)
    found = {
        case.case_id: group.found.get(case.pk) for group in search.groups for case in group.cases
    }

    # Ids that hold the words need no excerpt; a text shows the words as written.
    assert found["refund-late"] is None
    assert found["login"] == ("I cannot log in to get my ", "REFUND", ".")


def test_an_excerpt_is_cut_around_the_match_in_a_long_text() -> None:
    workspace = factories.workspace()
    long_text = "a " * 100 + "the needle here" + " b" * 100
    factories.case(factories.suite(workspace), "haystack", ("user", long_text))

    [group] = search_workspace(workspace, "needle", None, 50).groups
    before, match, after = group.found[group.cases[0].pk]

    assert match == "needle"
    assert before.startswith("…") and before.endswith("the ") and len(before) <= 61
    assert after.startswith(" here") and after.endswith("…") and len(after) <= 61


def test_the_results_page_marks_the_matched_words(team: Workspace) -> None:
    client = Client()
    client.force_login(factories.admin())
    html = client.get(reverse("workspace_search", args=[team.slug]), {"q": "refund"}).content
    assert (
        b'<span class="search-excerpt">I cannot log in to get my <mark>REFUND</mark>.</span>'
        in html
    )

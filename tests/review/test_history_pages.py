"""A case's history a page at a time: newest first, links to older revisions, and each row
saying what it changed even at a page's edge."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, Workspace
from evals_app.views.history import REVISIONS_PER_PAGE
from tests import factories


@pytest.fixture
def workspace(db: None) -> Workspace:
    return factories.workspace()


@pytest.fixture
def editor(workspace: Workspace) -> User:
    return factories.member(workspace, "editor")


def saved_many_times(workspace: Workspace, editor: User, saves: int) -> Case:
    case = factories.case(factories.suite(workspace), "often-edited")
    for number in range(1, saves + 1):
        factories.revision(case, editor, "edited", outcome=f"Outcome {number}.")
    return case


def history(client: Client, case: Case, query: str = "") -> str:
    url = reverse("case_history", args=[case.suite.workspace.slug, case.suite_id, case.pk])
    response = client.get(url + query)
    assert response.status_code == 200
    return response.content.decode()


def numbers(html: str) -> list[int]:
    return [int(number) for number in re.findall(r'<th scope="row">(\d+)</th>', html)]


def older_link(html: str) -> str | None:
    found = re.search(r'<a href="(\?below=\d+)" rel="next">', html)
    return found.group(1) if found else None


@pytest.fixture
def client(editor: User) -> Client:
    client = Client()
    client.force_login(editor)
    return client


def test_the_history_shows_the_newest_page_of_revisions_first(
    client: Client, workspace: Workspace, editor: User
) -> None:
    case = saved_many_times(workspace, editor, REVISIONS_PER_PAGE + 20)

    html = history(client, case)

    total = REVISIONS_PER_PAGE + 20
    assert numbers(html) == list(range(total, total - REVISIONS_PER_PAGE, -1))
    assert older_link(html) == f"?below={total - REVISIONS_PER_PAGE + 1}"


def test_following_the_older_link_reaches_every_revision_once(
    client: Client, workspace: Workspace, editor: User
) -> None:
    case = saved_many_times(workspace, editor, 2 * REVISIONS_PER_PAGE + 5)
    seen: list[int] = []
    query: str | None = ""
    while query is not None:
        html = history(client, case, query)
        seen += numbers(html)
        query = older_link(html)

    assert seen == list(range(2 * REVISIONS_PER_PAGE + 5, 0, -1))


def test_the_oldest_row_of_a_page_says_what_it_changed(
    client: Client, workspace: Workspace, editor: User
) -> None:
    case = saved_many_times(workspace, editor, REVISIONS_PER_PAGE + 3)

    html = history(client, case)

    last_row = html.rsplit('<th scope="row">', 1)[1]
    assert "outcome changed" in last_row


def test_an_older_page_links_back_to_the_newest_and_offers_restoring_every_row(
    client: Client, workspace: Workspace, editor: User
) -> None:
    case = saved_many_times(workspace, editor, REVISIONS_PER_PAGE + 3)

    html = history(client, case, "?below=4")

    assert numbers(html) == [3, 2, 1]
    assert older_link(html) is None
    assert 'rel="first">← Newest revisions</a>' in html
    assert html.count("Restore revision") == 3


def test_a_short_history_has_no_page_links(
    client: Client, workspace: Workspace, editor: User
) -> None:
    case = saved_many_times(workspace, editor, 3)

    html = history(client, case)

    assert numbers(html) == [3, 2, 1]
    assert 'aria-label="Pages of revisions"' not in html


@pytest.mark.parametrize("below", ["abc", "-1", "99999999999999999999", ""])
def test_a_below_that_is_no_number_shows_the_newest_page(
    client: Client, workspace: Workspace, editor: User, below: str
) -> None:
    case = saved_many_times(workspace, editor, 3)

    assert numbers(history(client, case, f"?below={below}")) == [3, 2, 1]

"""A workspace's activity a page at a time: newest first, an "Older" link, and every
entry on exactly one page, even when many share the same moment."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from evals_app.models import ActivityRecord, Revision, Workspace
from evals_app.services.workspaces.activity import record_activity
from evals_app.views.review import ACTIVITY_PER_PAGE
from tests import factories


@pytest.fixture
def team(db: None) -> Workspace:
    return factories.workspace("Team evals")


@pytest.fixture
def owner(client: Client, team: Workspace) -> User:
    account = factories.member(team, "owner", "olivia")
    client.force_login(account)
    return account


def page(client: Client, url: str) -> tuple[list[str], str | None]:
    """The entries listed on the page at `url` as text (without their time), and its "Older"
    link."""
    text = client.get(url).content.decode()
    entries = [
        " ".join(html.unescape(re.sub(r"<[^>]+>", " ", entry)).split()[3:])
        for entry in re.findall(r"<li>(.*?)</li>", text, re.S)
    ]
    older = re.search(r'<a href="([^"]+)" rel="next">Older', text)
    return entries, html.unescape(older.group(1)) if older else None


def every_page(client: Client, workspace: Workspace) -> list[list[str]]:
    url = reverse("activity", args=[workspace.slug])
    pages = []
    query: str | None = ""
    while query is not None:
        subjects, query = page(client, url + query)
        pages.append(subjects)
    return pages


def test_the_activity_page_shows_the_latest_entries_and_links_to_older_ones(
    client: Client, team: Workspace, owner: User
) -> None:
    for number in range(ACTIVITY_PER_PAGE + 5):
        record_activity(team, owner, ActivityRecord.Action.SYNCED, f"commit {number}")

    pages = every_page(client, team)

    assert [len(subjects) for subjects in pages] == [ACTIVITY_PER_PAGE, 5]
    newest = ACTIVITY_PER_PAGE + 4
    assert pages[0][:2] == [
        f"synced with the repository at commit {newest}",
        f"synced with the repository at commit {newest - 1}",
    ]
    assert pages[1][-1] == "synced with the repository at commit 0"


def test_entries_of_one_moment_are_each_on_exactly_one_page(
    client: Client, team: Workspace, owner: User
) -> None:
    case = factories.case(factories.suite(team), "busy-case")
    for number in range(ACTIVITY_PER_PAGE + 10):
        record_activity(team, owner, ActivityRecord.Action.SYNCED, f"commit {number}")
        factories.revision(case, owner, f"edit {number}")
    moment = timezone.now()
    ActivityRecord.objects.update(created_at=moment)
    Revision.objects.update(created_at=moment)

    pages = every_page(client, team)

    listed = [entry for entries in pages for entry in entries]
    expected = [f"synced with the repository at commit {n}" for n in range(ACTIVITY_PER_PAGE + 10)]
    expected += [
        f"changed busy-case in evals/review.yaml edit {n}" for n in range(ACTIVITY_PER_PAGE + 10)
    ]
    assert sorted(listed) == sorted(expected)
    assert all(len(entries) == ACTIVITY_PER_PAGE for entries in pages[:-1])


@pytest.mark.parametrize("before", ["nonsense", "WyJ4IiwxLDJd", "WyIyMDI2LTAxLTAxVDAwOjAwIiwxLDJd"])
def test_an_unusable_older_link_shows_the_latest_entries(
    client: Client, team: Workspace, owner: User, before: str
) -> None:
    record_activity(team, owner, ActivityRecord.Action.SYNCED, "the only commit")

    entries, _ = page(client, reverse("activity", args=[team.slug]) + f"?before={before}")

    assert entries == ["synced with the repository at the only commit"]

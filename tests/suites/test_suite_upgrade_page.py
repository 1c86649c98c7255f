"""The suite page's "Upgrade to today's format": for owners and editors of an older suite; the
page shows every change before anything is written, and **Upgrade** applies it."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, Job, Suite, Workspace
from tests import factories

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "upgrade"
LINK = "Upgrade to today's format</a>"


@pytest.fixture
def workspace(db: None) -> Workspace:
    return factories.imported_workspace(FIXTURES, "Older files")


def url(name: str, suite: Suite) -> str:
    return reverse(name, args=[suite.workspace.slug, suite.pk])


def signed_in_as(workspace: Workspace, role: str) -> Client:
    client = Client(enforce_csrf_checks=False)
    client.force_login(factories.member(workspace, role))
    return client


@pytest.mark.parametrize(
    ("role", "shown"), [("owner", True), ("editor", True), ("reviewer", False)]
)
def test_the_action_is_on_an_older_suite_s_page_for_those_who_edit(
    workspace: Workspace, role: str, shown: bool
) -> None:
    seeds = workspace.suites.get(path="evals/seeds.yaml")

    page = signed_in_as(workspace, role).get(url("suite_detail", seeds)).content.decode()

    assert (url("suite_upgrade", seeds) in page) is shown
    assert (LINK in page) is shown


def test_a_suite_in_today_s_format_has_no_upgrade_action(workspace: Workspace) -> None:
    today = workspace.suites.get(path="evals/today.yaml")

    page = signed_in_as(workspace, "owner").get(url("suite_detail", today)).content.decode()

    assert LINK not in page


def test_reviewers_may_neither_see_nor_apply_the_upgrade(workspace: Workspace) -> None:
    seeds = workspace.suites.get(path="evals/seeds.yaml")
    reviewer = signed_in_as(workspace, "reviewer")

    assert reviewer.get(url("suite_upgrade", seeds)).status_code == 403
    assert reviewer.post(url("suite_upgrade", seeds)).status_code == 403
    assert workspace.suites.get(pk=seeds.pk).cases_key == "evalcases"


def test_the_page_shows_each_case_before_and_after_and_writes_nothing(
    workspace: Workspace,
) -> None:
    seeds = workspace.suites.get(path="evals/seeds.yaml")
    editor = signed_in_as(workspace, "editor")
    before = factories.database_snapshot()

    response = editor.get(url("suite_upgrade", seeds))

    assert factories.database_snapshot() == before
    page = response.content.decode()
    assert "2 of 2 cases change." in page
    assert '<ul class="guideline-cases"><li>order-status</li></ul>' in page
    assert "<code>judges/grade.md</code> changed" in page
    assert "<code>judges/shared.md</code> copied to <code>judges/shared.v2026.md</code>" in page
    assert "input_messages:" in page and "vars:" in page
    assert "Where is my order 1042?" in page
    assert "Formatted question: AgentV 2025 → AgentV 2026" in page
    assert "<li><code>input_messages</code> → <code>vars.input</code></li>" in page


def test_upgrade_applies_it_and_says_so(workspace: Workspace) -> None:
    seeds = workspace.suites.get(path="evals/seeds.yaml")
    client = signed_in_as(workspace, "editor")

    response = client.post(url("suite_upgrade", seeds))

    job = Job.objects.get()
    assert response["Location"] == job.get_absolute_url()
    page = client.get(response["Location"]).content.decode()
    assert (
        "Upgraded evals/seeds.yaml to today&#x27;s format: 2 cases changed, each as a new revision."
        in page
    )
    assert f'href="{url("suite_detail", seeds)}">Open the suite' in page
    assert LINK not in client.get(url("suite_detail", seeds)).content.decode()
    assert Case.objects.get(suite=seeds, case_id="refund").revisions.count() == 2


def test_the_upgrade_is_in_the_activity_feed(workspace: Workspace) -> None:
    seeds = workspace.suites.get(path="evals/seeds.yaml")
    client = signed_in_as(workspace, "owner")
    client.post(url("suite_upgrade", seeds))

    page = client.get(reverse("activity", args=[workspace.slug])).content.decode()

    assert "upgraded suite" in page
    assert "to today&#x27;s format (2 cases changed)" in page

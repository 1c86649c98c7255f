"""Deleting cases from the suite page can be undone from its message, and a deleted case is
restored from the workspace's Deleted cases (docs/user-guide.md, "Deleted cases")."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Workspace
from evals_app.services.review.comments import start_thread
from tests.browser.pages import sign_in

pytestmark = pytest.mark.browser

REVIEW_SUITE = "evals/coding/review.yaml"


def ids(page: Page) -> list[str]:
    """The ids of the cases the table lists, in order."""
    return page.locator("#cases tbody th > a:first-child").all_inner_texts()


def test_a_deleted_case_comes_back_with_undo_at_its_place_with_its_comments(
    page: Page, alice: User, example_workspace: Workspace, live_server: LiveServer
) -> None:
    suite = example_workspace.suites.get(path=REVIEW_SUITE)
    case = suite.cases.order_by("position")[1]
    start_thread(case, alice, "Is this still needed?")
    sign_in(page, alice, live_server.url)
    page.goto(reverse("suite_detail", args=[example_workspace.slug, suite.pk]))
    before = ids(page)

    page.get_by_text(f"Delete {case.case_id}", exact=True).click()
    page.get_by_role("button", name=f"Yes, delete {case.case_id}").click()

    expect(page.get_by_role("status")).to_contain_text(f"Deleted {case.case_id}.")
    assert case.case_id not in ids(page)
    page.get_by_role("button", name="Undo").click()

    expect(page.get_by_role("status")).to_contain_text(f"Restored {case.case_id}.")
    assert ids(page) == before
    page.get_by_role("link", name=case.case_id, exact=True).click()
    expect(page.locator("#review")).to_contain_text("Is this still needed?")


def test_cases_deleted_together_are_restored_one_by_one_from_the_deleted_list(
    page: Page, alice: User, example_workspace: Workspace, live_server: LiveServer
) -> None:
    suite = example_workspace.suites.get(path=REVIEW_SUITE)
    first, second = suite.cases.order_by("position")[:2]
    sign_in(page, alice, live_server.url)
    page.goto(reverse("suite_detail", args=[example_workspace.slug, suite.pk]))
    page.get_by_role("checkbox", name=f"Select {first.case_id}").check()
    page.get_by_role("checkbox", name=f"Select {second.case_id}").check()
    page.get_by_role("button", name="Delete selected…").click()
    page.get_by_role("button", name="Yes, delete 2 cases").click()
    expect(page.get_by_role("status")).to_contain_text("Deleted: 2 cases")

    page.goto(example_workspace.get_absolute_url())
    page.get_by_role("link", name="Deleted cases").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        f"Deleted cases in {example_workspace.name}"
    )
    expect(page.locator("tbody tr")).to_have_count(2)
    page.get_by_role("button", name=f"Restore {second.case_id}").click()

    expect(page.get_by_role("status")).to_contain_text(f"Restored {second.case_id}.")
    assert ids(page)[0] == second.case_id
    assert first.case_id not in ids(page)
    page.goto(reverse("deleted_list", args=[example_workspace.slug]))
    expect(page.locator("tbody tr")).to_have_count(1)
    expect(page.locator("tbody")).to_contain_text(first.case_id)

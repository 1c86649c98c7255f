"""The suite page as a work list in the browser: filter, select, act; ids stay readable."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Case, Membership, ReviewEvent, Suite, Workspace
from evals_app.services.review.workflow import move
from evals_app.services.workspaces.memberships import add_member
from tests.browser.pages import PASSWORD, sign_in
from tests.factories import user

pytestmark = pytest.mark.browser

REVIEW_SUITE = "evals/coding/review.yaml"  # four cases; review-missing-attachment has a warning


def suite_url(workspace: Workspace) -> str:
    suite = workspace.suites.get(path=REVIEW_SUITE)
    return reverse("suite_detail", args=[workspace.slug, suite.pk])


def rows(page: Page) -> list[str]:
    """The ids of the cases the table lists, in order."""
    return page.locator("#cases tbody th > a:first-child").all_inner_texts()


@pytest.fixture
def rita(example_workspace: Workspace) -> User:
    """A reviewer of the example workspace."""
    account = user("rita", PASSWORD)
    add_member(example_workspace, "rita", Membership.Role.REVIEWER)
    return account


def test_a_reviewer_filters_the_cases_in_review_and_approves_two_of_them(
    page: Page, alice: User, rita: User, example_workspace: Workspace, live_server: LiveServer
) -> None:
    suite = Suite.objects.get(workspace=example_workspace, path=REVIEW_SUITE)
    for case_id in ("review-cart-subtotal", "review-ticket-timestamps", "review-empty-diff"):
        move(suite.cases.get(case_id=case_id), alice, ReviewEvent.Action.SUBMITTED)
    sign_in(page, rita, live_server.url)
    page.goto(suite_url(example_workspace))
    expect(page.get_by_role("checkbox", name="Select review-empty-diff")).to_be_visible()

    page.get_by_role("search").get_by_label("Review").select_option(label="In review")

    expect(page).to_have_url(re.compile(r"\?status=in_review$"))  # a URL to share
    expect(page.locator("#cases tbody tr")).to_have_count(3)
    page.get_by_role("checkbox", name="Select review-cart-subtotal").check()
    page.get_by_role("checkbox", name="Select review-empty-diff").check()
    page.get_by_role("button", name="Approve selected").click()

    expect(page.locator("#cases")).to_contain_text(
        "Approved: 2 cases (review-cart-subtotal, review-empty-diff)."
    )
    assert rows(page) == ["review-ticket-timestamps"]  # the list is still the cases in review
    approved = Case.objects.filter(suite=suite, status="approved")
    assert sorted(approved.values_list("case_id", flat=True)) == [
        "review-cart-subtotal",
        "review-empty-diff",
    ]


def test_select_all_selects_every_case_of_the_page_and_follows_the_rows(
    page: Page, alice: User, example_workspace: Workspace, live_server: LiveServer
) -> None:
    sign_in(page, alice, live_server.url)
    page.goto(suite_url(example_workspace))
    every = page.get_by_role("checkbox", name="Select all cases on this page")
    boxes = page.locator("#cases tbody input[type=checkbox]")

    every.check()
    expect(boxes.and_(page.locator(":checked"))).to_have_count(4)

    boxes.first.uncheck()
    expect(every).not_to_be_checked()
    assert every.evaluate("box => box.indeterminate")


def test_ids_stay_on_one_line_when_the_warnings_open(
    page: Page, alice: User, example_workspace: Workspace, live_server: LiveServer
) -> None:
    page.set_viewport_size({"width": 1024, "height": 800})
    sign_in(page, alice, live_server.url)
    page.goto(suite_url(example_workspace))
    ids = page.locator("#cases tbody th > a:first-child")
    widths = [box["width"] for box in (link.bounding_box() for link in ids.all()) if box]

    summaries = page.locator("details.warnings-list > summary")
    for summary in summaries.all():
        summary.click()
    expect(page.locator("details.warnings-list[open]")).to_have_count(summaries.count())

    for link in ids.all():
        # An inline element broken over two lines has a box per line.
        assert link.evaluate("a => a.getClientRects().length") == 1, link.inner_text()
    reopened = [box["width"] for box in (link.bounding_box() for link in ids.all()) if box]
    assert reopened == widths
    for cell in page.locator("td.warnings-cell").filter(has=page.locator("details[open]")).all():
        # Long warnings wrap inside their cell instead of widening it past the table.
        fits = "td => [...td.querySelectorAll('li')].every(li => li.scrollWidth <= td.clientWidth)"
        assert cell.evaluate(fits)

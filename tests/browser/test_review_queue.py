"""Assignments and My queue in the browser: an owner spreads cases over two reviewers; a
reviewer works through their queue with the keyboard only."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import (
    Membership,
    ReviewAssignment,
    ReviewCriterion,
    ReviewScore,
    ReviewStatus,
    Suite,
)
from evals_app.services.review.assignments import assign_cases
from evals_app.services.review.criteria import add_criterion
from tests import factories
from tests.browser.pages import sign_in

pytestmark = pytest.mark.browser


@pytest.fixture
def suite(transactional_db: None) -> Suite:
    """A suite of ten cases in review, in a workspace whose form asks for a 1-5 "Clear"."""
    workspace = factories.workspace("Queue team")
    suite = factories.suite(workspace)
    for number in range(10):
        factories.case(suite, f"case-{number:02}", status=ReviewStatus.IN_REVIEW)
    add_criterion(workspace, "Clear", ReviewCriterion.Kind.SCALE, "Could anyone answer it?")
    return suite


def reviewer(suite: Suite, username: str) -> User:
    return factories.member(suite.workspace, Membership.Role.REVIEWER, username)


def test_owner_spreads_ten_cases_over_two_reviewers(
    new_page: Callable[..., Page], live_server: LiveServer, suite: Suite
) -> None:
    owner = factories.member(suite.workspace, Membership.Role.OWNER, "olga")
    ann, bob = reviewer(suite, "ann"), reviewer(suite, "bob")
    page = new_page()
    sign_in(page, owner, live_server.url)

    page.goto(reverse("suite_detail", args=[suite.workspace.slug, suite.pk]))
    page.get_by_label("Select all cases on this page").check()
    page.get_by_role("group", name="Reviewers").get_by_label("ann").check()
    page.get_by_role("group", name="Reviewers").get_by_label("bob").check()
    page.get_by_role("button", name="Spread selected over them").click()

    expect(page.get_by_role("status").first).to_contain_text("10 cases")
    mine = {
        who.username: list(
            ReviewAssignment.objects.filter(reviewer=who)
            .order_by("case__position")
            .values_list("case__case_id", flat=True)
        )
        for who in (ann, bob)
    }
    assert mine == {
        "ann": [f"case-{n:02}" for n in range(0, 10, 2)],
        "bob": [f"case-{n:02}" for n in range(1, 10, 2)],
    }


def test_reviewer_works_through_my_queue_with_the_keyboard_only(
    new_page: Callable[..., Page], live_server: LiveServer, suite: Suite
) -> None:
    owner = factories.member(suite.workspace, Membership.Role.OWNER, "olga")
    ann = reviewer(suite, "ann")
    mine = list(suite.cases.order_by("position").values_list("pk", flat=True)[:3])
    assign_cases(suite, mine, [ann.pk], owner)
    page = new_page()
    sign_in(page, ann, live_server.url)

    page.goto(reverse("my_queue"))
    expect(page.get_by_role("status")).to_contain_text("0 of 3 reviewed")
    page.keyboard.press("n")
    for number, score in enumerate("425"):
        expect(page.locator("#case-heading")).to_contain_text(f"case-{number:02}")
        page.wait_for_load_state("networkidle")
        page.keyboard.press(score)
        expect(page.get_by_role("radio", name=score, exact=True)).to_be_checked()
        page.keyboard.press("a")
        page.keyboard.press("Enter")
        expect(page.locator("#review")).to_contain_text("Approved")
        page.keyboard.press("n")

    expect(page.get_by_role("status").first).to_contain_text("every case is reviewed")
    expect(page.get_by_role("status").last).to_contain_text("3 of 3 reviewed")
    scores = ReviewScore.objects.order_by("review__case__position")
    assert list(scores.values_list("review__case__case_id", "value")) == [
        ("case-00", "4"),
        ("case-01", "2"),
        ("case-02", "5"),
    ]

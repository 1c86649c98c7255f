"""Two people review a case in the browser, and a third outside the workspace reaches none of it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Locator, Page, expect

from evals_app.models import Membership, Workspace
from evals_app.services.workspaces.memberships import add_member
from tests.browser.pages import MULTI_TURN, PASSWORD, editor_url, log_in, open_editor, text_of
from tests.factories import user

pytestmark = pytest.mark.browser


def reviewer_of(workspace: Workspace, username: str) -> User:
    account = user(username, PASSWORD)
    add_member(workspace, username, Membership.Role.REVIEWER)
    return account


def review_panel(page: Page) -> Locator:
    return page.get_by_role("region", name="Review")


def reload(page: Page) -> None:
    """Reload once the preview's requests are done (leaving aborts them, which htmx logs)."""
    page.wait_for_load_state("networkidle")
    page.reload()


def test_editor_and_reviewer_go_through_the_whole_review(
    new_page: Callable[..., Page], alice: User, example_workspace: Workspace
) -> None:
    rita = reviewer_of(example_workspace, "rita")
    author, reviewer = new_page(), new_page()
    log_in(author, alice)
    log_in(reviewer, rita)

    # Alice edits the case and submits it for review.
    open_editor(author, example_workspace, MULTI_TURN)
    text_of(author, 1).fill("You are a careful debugging assistant.")
    author.keyboard.press("Control+s")
    expect(author.locator("#save-status")).to_contain_text("Saved")
    review_panel(author).get_by_role("button", name="Submit for review").click()
    expect(review_panel(author)).to_contain_text("In review")

    # Rita finds it in her queue, opens it with one key, comments on turn 2, requests changes.
    reviewer.goto(reverse("review_queue"))
    reviewer.keyboard.press("n")
    expect(reviewer).to_have_url(editor_url(example_workspace, MULTI_TURN))
    review_panel(reviewer).get_by_label("About").select_option(label="Turn 2 (user)")
    review_panel(reviewer).get_by_label("Comment", exact=True).fill("Quote the whole error.")
    review_panel(reviewer).get_by_role("button", name="Comment", exact=True).click()
    expect(reviewer.locator("#threads-input-1")).to_contain_text("Quote the whole error.")
    review_panel(reviewer).get_by_role("button", name="Request changes").click()
    expect(review_panel(reviewer)).to_contain_text("Changes requested")

    # Alice sees the comment beside turn 2, edits that turn, saves and submits again.
    reload(author)
    expect(author.locator("#threads-input-1")).to_contain_text("Quote the whole error.")
    text_of(author, 2).fill(
        "Checkout fails with: TypeError: Cannot read properties of undefined (reading 'price')"
    )
    author.keyboard.press("Control+s")
    expect(author.locator("#save-status")).to_contain_text("Saved")
    review_panel(author).get_by_role("button", name="Submit for review").click()
    expect(review_panel(author)).to_contain_text("In review")

    # Rita compares the last two revisions: the turn's new words and the new question.
    reload(reviewer)
    reviewer.get_by_role("link", name="History").click()
    reviewer.get_by_role("button", name="Compare").click()
    expect(reviewer.locator("table.turns-diff del").first).to_contain_text("broken on staging")
    expect(reviewer.get_by_label("Formatted question, revision 2 and 3")).to_contain_text(
        "Checkout fails with"
    )

    # Rita approves with the keyboard: "a" opens the note, Enter confirms.
    open_editor(reviewer, example_workspace, MULTI_TURN)
    reviewer.keyboard.press("a")
    reviewer.keyboard.press("Enter")
    expect(review_panel(reviewer)).to_contain_text("Approved")


def test_outsider_reaches_nothing_of_the_workspace(
    page: Page, example_workspace: Workspace, expected_console_errors: list[str]
) -> None:
    log_in(page, user("olga", PASSWORD))
    expected_console_errors.append(r"status of 404 \(Not Found\)")

    page.goto(reverse("workspace_list"))
    expect(page.get_by_role("link", name="Example workspace")).to_have_count(0)
    for url in (
        example_workspace.get_absolute_url(),
        editor_url(example_workspace, MULTI_TURN),
        editor_url(example_workspace, MULTI_TURN) + "yaml/",
    ):
        response = page.goto(url)
        assert response is not None and response.status == 404, url

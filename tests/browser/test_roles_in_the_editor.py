"""Each role sees its own editor: reviewers and viewers read, reviewers review with a note."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Dialog, Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Case, Membership, ReviewEvent, Workspace
from evals_app.services.review.workflow import move
from evals_app.services.workspaces.memberships import add_member
from tests.browser.pages import MULTI_TURN, PASSWORD, open_editor, question, sign_in
from tests.factories import user

pytestmark = pytest.mark.browser


def account_of(workspace: Workspace, username: str, role: str) -> User:
    """A new account with `role` in `workspace`."""
    account = user(username, PASSWORD)
    add_member(workspace, username, role)
    return account


def in_review(workspace: Workspace, case_id: str, author: User) -> Case:
    """The case `case_id`, submitted for review by `author`."""
    case = Case.objects.get(suite__workspace=workspace, case_id=case_id)
    move(case, author, ReviewEvent.Action.SUBMITTED)
    return case


@pytest.mark.parametrize("role", [Membership.Role.VIEWER, Membership.Role.REVIEWER])
def test_viewer_and_reviewer_get_a_read_only_editor(
    page: Page, example_workspace: Workspace, live_server: LiveServer, role: str
) -> None:
    sign_in(page, account_of(example_workspace, "vera", role), live_server.url)
    open_editor(page, example_workspace, MULTI_TURN)
    case_form = page.locator("#case-form")

    # Every value is shown, none can be typed into; no button changes the case.
    expect(case_form.get_by_label("Id", exact=True)).to_have_value(MULTI_TURN)
    for box in case_form.get_by_role("textbox").all():
        expect(box).not_to_be_editable()
    expect(case_form.get_by_role("combobox", name="Role of turn 1")).to_have_count(0)
    assert case_form.get_by_role("button").all_inner_texts() == ["Shortcuts"]
    expect(page.get_by_text("the case is read-only")).to_be_visible()

    # The preview still follows the mode switch.
    page.get_by_label("Agent (file references)").check()
    expect(question(page)).to_contain_text('<file: path="')

    # Ctrl+S does nothing (a console error would fail the test), and leaving asks nothing.
    case_form.get_by_label("Expected outcome").click()
    page.keyboard.press("End")
    page.keyboard.type("typed")
    page.keyboard.press("Control+s")
    expect(case_form.get_by_label("Expected outcome")).not_to_contain_text("typed")
    dialogs: list[Dialog] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog), dialog.accept()))
    page.get_by_role("link", name="History").click()
    expect(page.get_by_role("heading", name=f"History of {MULTI_TURN}")).to_be_visible()
    assert dialogs == []


def test_editor_keeps_every_edit_control(
    page: Page, example_workspace: Workspace, live_server: LiveServer
) -> None:
    sign_in(page, account_of(example_workspace, "eddie", "editor"), live_server.url)
    open_editor(page, example_workspace, MULTI_TURN)

    expect(page.get_by_role("combobox", name="Role of turn 1")).to_be_editable()
    expect(page.get_by_role("button", name="Add user turn")).to_be_visible()
    expect(page.get_by_role("button", name="Save")).to_be_visible()


@pytest.mark.parametrize(
    ("key", "status", "verb"),
    [("a", "Approved", "approved"), ("r", "Changes requested", "requested changes")],
)
def test_review_shortcut_opens_the_note_and_enter_confirms(
    page: Page,
    example_workspace: Workspace,
    live_server: LiveServer,
    key: str,
    status: str,
    verb: str,
) -> None:
    in_review(example_workspace, MULTI_TURN, account_of(example_workspace, "alice", "editor"))
    sign_in(page, account_of(example_workspace, "rita", "reviewer"), live_server.url)
    open_editor(page, example_workspace, MULTI_TURN)
    panel = page.get_by_role("region", name="Review")

    page.keyboard.press(key)

    # Nothing happened yet: the cursor waits in the note, and the page says what Enter does.
    note = panel.get_by_label("Note (optional)")
    expect(note).to_be_focused()
    expect(note).to_have_value("")
    expect(panel).to_contain_text("In review")
    expect(panel.locator("#review-pending")).to_contain_text("Enter")
    page.keyboard.type("Checked against the invoice.")
    page.keyboard.press("Enter")

    expect(panel.get_by_text(status, exact=True).first).to_be_visible()
    expect(panel.locator(".review-events li").first).to_have_text(
        re.compile(f"rita {verb} .*: Checked against the invoice.")
    )


def test_escape_cancels_a_review_shortcut(
    page: Page, example_workspace: Workspace, live_server: LiveServer
) -> None:
    in_review(example_workspace, MULTI_TURN, account_of(example_workspace, "alice", "editor"))
    sign_in(page, account_of(example_workspace, "rita", "reviewer"), live_server.url)
    open_editor(page, example_workspace, MULTI_TURN)
    panel = page.get_by_role("region", name="Review")

    page.keyboard.press("a")
    page.keyboard.press("Escape")
    page.keyboard.press("Enter")

    expect(panel.get_by_label("Note (optional)")).not_to_be_focused()
    expect(panel.locator("#review-pending")).to_be_empty()
    page.reload()
    expect(page.get_by_role("region", name="Review")).to_contain_text("In review")

"""A reviewer's mention says whom it reached; the administrator it did not reach sets an email
address on their profile (docs/user-guide.md, "Mentions and notifications", "Your profile")."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect

from evals_app.models import Membership, Notification, Workspace
from evals_app.services.workspaces.memberships import add_member
from tests.browser.pages import MULTI_TURN, PASSWORD, log_in, open_editor
from tests.factories import user

pytestmark = pytest.mark.browser


def test_a_mention_says_who_was_notified_and_the_administrator_sets_an_email(
    new_page: Callable[..., Page], alice: User, example_workspace: Workspace
) -> None:
    rita = user("rita", PASSWORD)
    add_member(example_workspace, "rita", Membership.Role.REVIEWER)
    admin = User.objects.create_superuser("admin", "", PASSWORD)
    reviewer = new_page()
    log_in(reviewer, rita)
    open_editor(reviewer, example_workspace, MULTI_TURN)
    panel = reviewer.get_by_role("region", name="Review")

    panel.get_by_label("Comment", exact=True).fill("@alice @admin @nobody: is turn 2 right?")
    panel.get_by_role("button", name="Comment", exact=True).click()

    expect(panel.get_by_role("status").filter(has_text="Notified")).to_have_text(
        "Notified @alice. Not notified: @admin is not a member of this workspace. "
        "Not notified: @nobody is no user here."
    )
    assert list(Notification.objects.values_list("recipient__username", flat=True)) == ["alice"]

    administrator = new_page()
    log_in(administrator, admin)
    administrator.goto(reverse("inbox"))
    administrator.get_by_role("link", name="set one in your profile").click()
    administrator.get_by_role("textbox", name="Email").fill("admin@example.com")
    administrator.get_by_role("button", name="Save email", exact=True).click()
    expect(administrator.get_by_role("status")).to_contain_text(
        "Notifications go to admin@example.com."
    )
    administrator.get_by_label("Approvals of my cases").uncheck()
    administrator.get_by_role("button", name="Save email choices").click()
    expect(administrator.get_by_label("Approvals of my cases")).not_to_be_checked()
    expect(administrator.get_by_label("Mentions of me")).to_be_checked()
    admin.refresh_from_db()
    assert admin.email == "admin@example.com"

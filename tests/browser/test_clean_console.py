"""Every page of the app, as every role, with one action where the role may act: the console
stays clean and the Content Security Policy blocks nothing (the fixtures fail the test on any
console error, uncaught exception or CSP violation report)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect

from evals_app.models import Case, Membership, ReviewEvent, Workspace
from evals_app.services.cases.editing import save_case
from evals_app.services.review.workflow import move
from evals_app.services.workspaces.memberships import add_member
from tests.browser.pages import (
    MULTI_TURN,
    PASSWORD,
    add_turn,
    log_in,
    question,
    save_status,
    text_of,
)
from tests.factories import user

pytestmark = pytest.mark.browser
ROLES = [role.value for role in Membership.Role]


@dataclass
class Team:
    """The example workspace with one account per role, and a case in review with history."""

    workspace: Workspace
    accounts: dict[str, User]
    case: Case

    def url(self, name: str, **kwargs: object) -> str:
        """The URL of the page `name` of this workspace (and of the case, where it takes one)."""
        arguments: dict[str, object] = {"slug": self.workspace.slug}
        if name.startswith("case_"):
            arguments.update(suite_pk=self.case.suite_id, case_pk=self.case.pk)
        return reverse(name, kwargs={**arguments, **kwargs})


@pytest.fixture
def team(example_workspace: Workspace) -> Team:
    accounts = {}
    for role in ROLES:
        accounts[role] = user(f"{role}-account", PASSWORD)
        add_member(example_workspace, f"{role}-account", role)
    user("spare", password=None)
    add_member(example_workspace, "spare", Membership.Role.VIEWER)
    cases = Case.objects.select_related("suite")
    case = cases.get(suite__workspace=example_workspace, case_id=MULTI_TURN)
    # The editor changes the case and submits it: it waits for the reviewer and the owner.
    document = case.document
    document["outcome"] = "Names the failing line and the fix."
    case = save_case(case, document, case.version, accounts["editor"])
    move(case, accounts["editor"], ReviewEvent.Action.SUBMITTED)
    return Team(example_workspace, accounts, case)


def settle(page: Page) -> None:
    """Wait until htmx's requests are done: leaving a page aborts them, which htmx logs."""
    page.wait_for_load_state("networkidle")


def can_edit(role: str) -> bool:
    return role in ("owner", "editor")


def can_review(role: str) -> bool:
    return role in ("owner", "reviewer")


@pytest.mark.parametrize("role", ROLES)
def test_every_page_keeps_a_clean_console(page: Page, team: Team, role: str) -> None:
    # The login page: logging in through its form.
    log_in(page, team.accounts[role])

    # The workspace list: open the workspace.
    page.goto(reverse("workspace_list"))
    page.get_by_role("link", name=team.workspace.name).click()
    expect(page.get_by_role("heading", name=team.workspace.name, level=1)).to_be_visible()

    # The activity page.
    page.goto(team.url("activity"))
    expect(page.get_by_role("heading", level=1)).to_be_visible()

    # The suite page: search as you type (htmx), then, for editors, duplicate a case.
    page.goto(reverse("suite_detail", args=[team.workspace.slug, team.case.suite_id]))
    page.get_by_label("Search cases").fill("checkout")
    expect(page.get_by_role("status")).to_contain_text("match “checkout”")
    if can_edit(role):
        page.get_by_role("button", name=f"Duplicate {MULTI_TURN}").click()
        expect(page.get_by_role("link", name=f"{MULTI_TURN}-copy")).to_be_visible()
    settle(page)

    # The editor: what each role may do there.
    page.goto(team.url("case_editor"))
    expect(question(page)).to_be_visible()
    if can_edit(role):
        # A text area resized by hand carries an inline style; htmx's settling after adding a
        # turn must not copy it back as an attribute, which the CSP refuses.
        text_of(page, 1).evaluate("area => { area.style.height = '120px'; }")
        add_turn(page, "user").fill("And on mobile?")
        page.keyboard.press("Control+s")
        expect(save_status(page)).to_contain_text("Saved")
    elif can_review(role):
        review = page.get_by_role("region", name="Review")
        review.get_by_label("Comment", exact=True).fill("Is the stack trace complete?")
        review.get_by_role("button", name="Comment", exact=True).click()
        expect(review).to_contain_text("Is the stack trace complete?")
    else:
        page.get_by_label("Agent (file references)").check()
        expect(question(page)).to_contain_text('<file: path="')
        page.keyboard.press("Control+s")
    settle(page)

    # The case's YAML: copy it (the browser may refuse the clipboard; the page says so).
    page.goto(team.url("case_yaml"))
    page.get_by_role("button", name="Copy to clipboard").click()
    expect(page.locator("#copy-status")).not_to_be_empty()

    # History, then compare: unfold the unchanged lines.
    page.goto(team.url("case_history"))
    page.get_by_role("button", name="Compare").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("revision")
    page.get_by_text(re.compile(r"Show \d+ unchanged lines")).first.click()

    if can_edit(role):
        # Paste YAML over the case: the differences, then the replacement.
        page.goto(reverse("case_paste", args=[team.workspace.slug, team.case.suite_id]))
        page.get_by_label("YAML").fill(
            f"id: {MULTI_TURN}\noutcome: Pasted.\ninput_messages: [{{role: user, content: Hi}}]\n"
        )
        page.get_by_role("button", name="Create or replace the case").click()
        page.get_by_role("button", name=f"Replace {MULTI_TURN}").click()
        expect(page.get_by_role("heading", name=MULTI_TURN, level=1)).to_be_visible()
        settle(page)

        # A new file, then an edit of it.
        page.goto(team.url("file_create"))
        page.get_by_label("Path").fill("notes/clean-console.md")
        page.get_by_label("Text").fill("Written in the browser.")
        page.get_by_role("button", name="Create file").click()
        page.get_by_role("link", name="notes/clean-console.md").click()
        page.get_by_label("Text").fill("Edited in the browser.")
        page.get_by_role("button", name="Save file").click()
    else:
        # A file, read-only.
        file = team.workspace.files.order_by("path").first()
        assert file is not None
        page.goto(team.url("file_edit", file_pk=file.pk))
        expect(page.get_by_role("region", name=f"Text of {file.path}")).to_be_visible()

    # The review queue: "n" opens the first case waiting (the owner changed it: not theirs).
    page.goto(reverse("review_queue"))
    if role == "reviewer":
        page.keyboard.press("n")
        expect(page.get_by_role("heading", level=1)).to_contain_text(MULTI_TURN)
        settle(page)
    else:
        expect(page.get_by_text("Nothing is waiting for your review.")).to_be_visible()

    # The workspace page.
    page.goto(team.workspace.get_absolute_url())
    if role == "owner":
        members = page.get_by_role("region", name="Members")
        members.get_by_text("Remove spare", exact=True).click()
        members.get_by_role("button", name="Yes, remove spare").click()
        expect(page.get_by_role("status")).to_contain_text("Removed spare.")
    elif role == "editor":
        page.get_by_label("Path").first.fill("evals/from-the-browser.yaml")
        page.get_by_role("button", name="Add suite").click()
        expect(page.get_by_role("heading", name="evals/from-the-browser.yaml")).to_be_visible()
    else:
        page.get_by_role("button", name="Approved cases only (.zip)").click()
        expect(page.get_by_role("status")).to_contain_text("No case of")

"""Script-injection payloads stored in a workspace, and typed into the editor, never run in a
real browser: no dialog opens, no injected element appears, no policy violation is logged
(the Content Security Policy would report a blocked inline script as a console error)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Dialog, Page, expect

from evals_app.models import Case, Workspace
from tests.browser.pages import PASSWORD, log_in, question, text_of
from tests.security.hostile_workspace import (
    ATTRIBUTE,
    CASE_ID,
    SCRIPT,
    TEXTAREA,
    hostile_workspace,
)

pytestmark = pytest.mark.browser


@pytest.fixture
def workspace(transactional_db: None, tmp_path: Path) -> Workspace:
    return hostile_workspace(tmp_path / "hostile")


@pytest.fixture
def dialogs(page: Page) -> list[str]:
    """The messages of every dialog (alert, confirm, prompt) the page opens; each is dismissed."""
    opened: list[str] = []

    def record(dialog: Dialog) -> None:
        opened.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", record)
    return opened


def assert_nothing_ran(page: Page, dialogs: list[str]) -> None:
    assert dialogs == []
    expect(page.locator("img[src='x']")).to_have_count(0)


def test_payloads_in_every_field_stay_text_on_every_page_and_in_the_preview(
    page: Page, workspace: Workspace, dialogs: list[str], expected_console_errors: list[str]
) -> None:
    account = User.objects.create_superuser("admin", password=PASSWORD)
    case = Case.objects.select_related("suite").get(case_id=CASE_ID)
    suite_url = reverse("suite_detail", args=[workspace.slug, case.suite.pk])
    log_in(page, account)

    page.goto(reverse("workspace_list"))
    page.get_by_role("link", name=workspace.name).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(workspace.name)
    assert_nothing_ran(page, dialogs)

    page.goto(suite_url)
    page.get_by_label("Search cases").fill(SCRIPT)  # htmx swaps in the matching cases
    expect(page.get_by_role("link", name=CASE_ID)).to_be_visible()
    assert_nothing_ran(page, dialogs)

    page.get_by_role("link", name=CASE_ID).click()
    expect(page.get_by_role("heading", name=CASE_ID, level=1)).to_be_visible()
    expect(question(page)).to_contain_text(f"Question {SCRIPT} {ATTRIBUTE}")
    page.get_by_label("Candidate answer (fills the judge prompt)").fill(f"Candidate {SCRIPT}")
    expect(page.locator("#judge-prompt")).to_contain_text(f"Candidate {SCRIPT}")
    text_of(page, 2).fill(f"Typed {TEXTAREA} {ATTRIBUTE}")
    expect(question(page)).to_contain_text(f"Typed {TEXTAREA} {ATTRIBUTE}")
    page.get_by_role("button", name="Add user turn").click()  # htmx re-renders every turn
    expect(text_of(page, 5)).to_be_focused()
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#save-status")).to_contain_text("Saved")
    assert_nothing_ran(page, dialogs)

    page.get_by_role("link", name="YAML", exact=True).click()
    expect(page.locator("#case-yaml")).to_contain_text(TEXTAREA)
    assert_nothing_ran(page, dialogs)

    # A refused paste shows the error and the pasted text again (a 422, which Chromium logs).
    expected_console_errors.append(r"status of 422")
    page.goto(reverse("case_paste", args=[workspace.slug, case.suite.pk]))
    page.get_by_label("YAML").fill(f"id: x\noutcome: ok\ninput_messages:\n  - role: '{SCRIPT}'\n")
    page.get_by_role("button", name="Create or replace the case").click()
    expect(page.get_by_role("alert")).to_contain_text(SCRIPT)
    expect(page.get_by_label("YAML")).to_have_value(
        f"id: x\noutcome: ok\ninput_messages:\n  - role: '{SCRIPT}'\n"
    )
    assert_nothing_ran(page, dialogs)

"""Today's tests in a real browser: a conversation test gains a turn whose chat messages follow
typing (docs/user-guide.md, "The editor for today's tests")."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from evals_app.models import Case, Workspace

pytestmark = pytest.mark.browser


def open_case(page: Page, workspace: Workspace, case_id: str) -> Case:
    case = Case.objects.select_related("suite").get(suite__workspace=workspace, case_id=case_id)
    page.goto(f"/w/{workspace.slug}/suites/{case.suite.pk}/cases/{case.pk}/")
    return case


def test_a_new_conversation_turn_shows_its_chat_messages_as_it_is_typed(
    editor: Page, example_workspace: Workspace
) -> None:
    open_case(editor, example_workspace, "order-lookup")
    turns = editor.locator("section.expanded-test").first.locator(".preview-turn")
    expect(turns).to_have_count(2)

    editor.get_by_role("button", name="Add conversation turn").click()
    new_input = editor.get_by_role("textbox", name="User input").nth(2)
    expect(new_input).to_be_focused()
    new_input.press_sequentially("Can I change the delivery address?")

    expect(turns).to_have_count(3)
    third = turns.nth(2)
    expect(third.locator(".bubble.role-user pre").last).to_have_text(
        "Can I change the delivery address?"
    )
    # The model's earlier answers are the earlier turns' expected outputs, labelled so.
    expect(third.locator(".bubble.role-assistant").last).to_contain_text(
        "Order 4411 shipped yesterday"
    )
    expect(third.get_by_text("Earlier answers are stand-ins")).to_be_visible()
    import os

    if os.environ.get("SHOT"):
        editor.set_viewport_size({"width": 1400, "height": 3000})
        editor.screenshot(path="/tmp/conv.png", full_page=True)

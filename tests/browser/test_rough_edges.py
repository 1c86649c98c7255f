"""The rough edges a new user met on a first walk through the app (docs/user-guide.md), each
checked in a real browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from evals_app.models import Workspace
from tests.browser.pages import MULTI_TURN, open_editor, question

pytestmark = pytest.mark.browser


def test_an_invalid_tool_call_is_named_and_the_rest_of_the_preview_stays(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)
    editor.get_by_role("button", name="Add a tool call to expected message 1").click()
    tool_input = editor.get_by_role("group", name="Tool call 1").get_by_label("Input (JSON)")
    tool_input.fill('{"order_id": ')

    expect(editor.get_by_text("Tool call 1 of expected message 1: not valid JSON")).to_be_visible()
    expect(question(editor)).to_be_visible()
    expect(editor.get_by_text("The preview cannot be shown")).to_have_count(0)
    expect(editor.get_by_text("expected-0-tool-0-input")).to_have_count(0)

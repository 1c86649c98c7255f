"""The README's screenshots, taken from the states these tests check.

`AGENTV_SCREENSHOTS=1 pytest tests/browser/test_readme_screenshots.py` writes them to
docs/screenshots/; without it the same flows run and are checked, and nothing is written.
"""

from __future__ import annotations

import os

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from evals_app.models import Workspace
from tests.browser.pages import MULTI_TURN, input_turns, open_editor, question
from tests.conftest import REPOSITORY

pytestmark = pytest.mark.browser

SCREENSHOTS = REPOSITORY / "docs" / "screenshots"


def screenshot(page: Page, name: str) -> None:
    """Write the README screenshot `name` of the visible page, when asked to."""
    if os.environ.get("AGENTV_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOTS / name)


def test_the_editor_shows_the_turns_beside_the_preview(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)
    turns = editor.get_by_role("region", name="Input turns")
    turns.scroll_into_view_if_needed()

    expect(input_turns(editor)).to_have_count(4)
    expect(input_turns(editor).first).to_be_in_viewport()
    expect(editor.get_by_text("Role markers on: assistant turn present.")).to_be_in_viewport()
    expect(question(editor)).to_be_in_viewport()
    expect(question(editor)).to_contain_text("@[System]:\nYou are a debugging assistant.")
    screenshot(editor, "editor.png")


def test_agent_mode_shows_file_references_in_the_question(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)
    editor.get_by_label("Agent (file references)").check()
    file_turn = input_turns(editor).nth(3)
    file_turn.scroll_into_view_if_needed()

    expect(question(editor)).to_contain_text('<file: path="../../src/cart.js">')
    expect(question(editor)).to_be_in_viewport()
    expect(file_turn.get_by_role("combobox", name="File", exact=True)).to_be_in_viewport()
    expect(editor.get_by_label("Agent (file references)")).to_be_checked()
    screenshot(editor, "editor-agent-mode.png")


def test_the_workspace_page_shows_suites_review_configs_and_files(
    editor: Page, example_workspace: Workspace
) -> None:
    editor.set_viewport_size({"width": 1280, "height": 1400})
    editor.goto(example_workspace.get_absolute_url())

    expect(editor.get_by_role("heading", name="Guideline patterns")).to_be_visible()
    expect(editor.get_by_role("article", name=".agentv/config.yaml")).to_contain_text(
        "Governs 6 suites"
    )
    expect(editor.get_by_role("link", name="evals/coding/review.yaml")).to_be_visible()
    screenshot(editor, "workspace.png")


def test_the_suite_page_lists_cases_with_their_review_and_formatting(
    editor: Page, example_workspace: Workspace
) -> None:
    suite = example_workspace.suites.get(path="evals/coding/review.yaml")
    editor.set_viewport_size({"width": 1280, "height": 1000})
    editor.goto(reverse("suite_detail", args=[example_workspace.slug, suite.pk]))

    expect(editor.get_by_role("search", name="Search, filter and sort cases")).to_be_visible()
    expect(editor.get_by_role("link", name="review-cart-subtotal", exact=True)).to_be_visible()
    screenshot(editor, "suite.png")


def test_a_conversation_test_shows_its_turns_beside_each_turns_messages(
    editor: Page, example_workspace: Workspace
) -> None:
    case = example_workspace.suites.get(path="evals/today/help-widget.eval.yaml").cases.get(
        case_id="order-lookup"
    )
    editor.goto(f"/w/{example_workspace.slug}/suites/{case.suite_id}/cases/{case.pk}/")
    first_turn = editor.get_by_role("listitem", name="Conversation turn 1")
    first_turn.scroll_into_view_if_needed()
    second_turn_preview = editor.get_by_role("region", name="Turn 2 of order-lookup")
    second_turn_preview.scroll_into_view_if_needed()

    expect(first_turn).to_be_in_viewport()
    expect(second_turn_preview.get_by_text("Earlier answers are stand-ins")).to_be_in_viewport()
    screenshot(editor, "editor-conversation.png")

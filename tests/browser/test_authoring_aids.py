"""Lint findings beside their turn, token counts and variants, in a real browser
(docs/user-guide.md, "Lint rules", "Token counts", "Variants")."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from evals_app.formatting.token_counts import count_tokens
from evals_app.models import Case, Workspace
from tests.browser.pages import MULTI_TURN, SINGLE_TURN, open_editor, save_status, text_of

pytestmark = pytest.mark.browser


def test_a_lint_finding_appears_beside_its_turn_as_you_type_and_goes_when_fixed(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)
    beside_turn_3 = editor.locator("#warnings-input-2")
    expect(beside_turn_3).not_to_contain_text("empty-turn")

    text_of(editor, 3).fill("")

    expect(beside_turn_3).to_contain_text("Lint empty-turn: Input turn 3 has no text")
    expect(editor.locator("#warnings-input-1")).not_to_contain_text("empty-turn")

    text_of(editor, 3).press_sequentially("Which file?")

    expect(beside_turn_3).not_to_contain_text("empty-turn")


def test_token_counts_follow_the_typing(editor: Page, example_workspace: Workspace) -> None:
    open_editor(editor, example_workspace, SINGLE_TURN)
    turn_tokens = editor.locator("#tokens-input-0")
    text = text_of(editor, 1)
    expect(turn_tokens).to_have_text(f"{count_tokens(text.input_value().strip())} tokens")
    sent = editor.locator("#token-counts .model-tokens").first
    sent_before = sent.inner_text()

    text.focus()
    editor.keyboard.press("Control+End")
    editor.keyboard.type(" Please answer in three short sentences.")

    expect(turn_tokens).to_have_text(f"{count_tokens(text.input_value().strip())} tokens")
    expect(sent).not_to_have_text(sent_before)
    expect(editor.locator("#context-window")).to_contain_text("of the workspace's context window")


def test_a_variant_forked_at_turn_3_offers_and_takes_a_change_of_turn_1(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)

    editor.get_by_role("button", name=re.compile("^Fork from turn 3")).click()

    variant_id = f"{MULTI_TURN}-variant"
    expect(editor.locator("#case-heading")).to_contain_text(variant_id)
    expect(editor.locator("#variant-panel")).to_contain_text(
        f"A variant of {MULTI_TURN}, sharing its input turns 1 to 3."
    )
    expect(editor.get_by_role("region", name="Input turns").get_by_role("listitem")).to_have_count(
        3
    )

    open_editor(editor, example_workspace, MULTI_TURN)
    text_of(editor, 1).fill("You are a careful debugging assistant.")
    editor.get_by_role("button", name="Save").click()
    expect(save_status(editor)).to_have_text("Saved (version 2).")

    variant = Case.objects.get(case_id=variant_id)
    open_editor(editor, example_workspace, variant_id)
    expect(editor.locator("#prefix-differs")).to_be_visible()
    expect(editor.locator("#variant-panel .diff")).to_contain_text(
        "+  content: You are a careful debugging assistant."
    )

    editor.get_by_role("button", name="Take the original's shared turns").click()

    expect(text_of(editor, 1)).to_have_value("You are a careful debugging assistant.")
    expect(editor.locator("#prefix-differs")).to_have_count(0)
    assert Case.objects.get(pk=variant.pk).version == variant.version + 1

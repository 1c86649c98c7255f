"""Saving a case in a real browser: what is saved comes back, conflicts are safe, leaving asks."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Dialog, Page, expect

from evals_app.models import Workspace
from tests.browser.pages import (
    MULTI_TURN,
    SINGLE_TURN,
    add_turn,
    attach_file,
    file_of,
    input_turns,
    log_in,
    open_editor,
    question,
    role_of,
    save_status,
    text_of,
    unreadable_buttons,
)

pytestmark = pytest.mark.browser


def test_the_save_button_saves_what_is_on_the_page(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)
    add_turn(editor, "assistant")
    editor.keyboard.type("The loop runs one step too far.")
    attach_file(editor, 5, "fixtures/cart-fix.diff")

    editor.get_by_role("button", name="Save").click()
    expect(save_status(editor)).to_have_text("Saved (version 2).")
    editor.reload()

    expect(input_turns(editor)).to_have_count(5)
    expect(role_of(editor, 5)).to_have_value("assistant")
    expect(text_of(editor, 5, block=1)).to_have_value("The loop runs one step too far.")
    expect(file_of(editor, 5)).to_have_value("fixtures/cart-fix.diff")


def test_control_s_saves(editor: Page, example_workspace: Workspace) -> None:
    open_editor(editor, example_workspace, SINGLE_TURN)
    text_of(editor, 1).fill("What does HTTP status 429 mean?")

    editor.keyboard.press("Control+s")
    expect(save_status(editor)).to_have_text("Saved (version 2).")
    editor.reload()

    expect(text_of(editor, 1)).to_have_value("What does HTTP status 429 mean?")


def test_text_that_starts_with_a_blank_line_keeps_it_after_saving_and_reloading(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, SINGLE_TURN)
    text_of(editor, 1).fill("\nWhat does HTTP status 429 mean?")

    editor.get_by_role("button", name="Save").click()
    expect(save_status(editor)).to_have_text("Saved (version 2).")
    editor.reload()

    expect(text_of(editor, 1)).to_have_value("\nWhat does HTTP status 429 mean?")


def test_a_new_user_extends_the_multi_turn_example_and_finds_it_after_reloading(
    page: Page, alice: User
) -> None:
    """The issue's "Done when", from the login form to the reloaded editor."""
    log_in(page, alice)
    page.get_by_role("link", name="Example workspace").click()
    page.get_by_role("link", name="evals/coding/debug-session.yaml").click()
    page.get_by_role("link", name=MULTI_TURN).click()
    guidelines = page.get_by_label("Guidelines")
    expect(guidelines).to_contain_text("No guideline file is referenced.")

    add_turn(page, "assistant")
    page.keyboard.type("Stop at i < items.length.")
    expect(question(page)).to_contain_text("@[Assistant]:\nStop at i < items.length.")
    add_turn(page, "user")
    page.keyboard.type("Please review the fix")
    expect(question(page)).to_contain_text("@[User]:\nPlease review the fix")
    page.keyboard.type(" against our guidelines.")
    expect(question(page)).to_contain_text("@[User]:\nPlease review the fix against our")
    attach_file(page, 6, "prompts/code-review.instructions.md")
    expect(guidelines).to_contain_text('<file path="code-review.instructions.md">')
    expect(question(page)).to_contain_text("<Attached: prompts/code-review.instructions.md>")
    page.keyboard.press("Control+s")
    expect(save_status(page)).to_have_text("Saved (version 2).")

    page.reload()

    expect(input_turns(page)).to_have_count(6)
    roles = ["system", "user", "assistant", "user", "assistant", "user"]
    for number, role in enumerate(roles, start=1):
        expect(role_of(page, number)).to_have_value(role)
    expect(text_of(page, 5)).to_have_value("Stop at i < items.length.")
    expect(text_of(page, 6, block=1)).to_have_value("Please review the fix against our guidelines.")
    expect(file_of(page, 6)).to_have_value("prompts/code-review.instructions.md")
    expect(guidelines).to_contain_text('<file path="code-review.instructions.md">')
    expect(question(page)).to_contain_text(
        "@[User]:\nPlease review the fix against our guidelines.\n"
        "<Attached: prompts/code-review.instructions.md>"
    )


def test_a_conflicting_save_is_refused_and_shows_what_differs(refused_save: Page) -> None:
    alert = refused_save.get_by_role("alert")
    expect(alert).to_contain_text("Not saved: someone else saved this case")
    differences = refused_save.get_by_role("table", name="What differs")
    expect(differences).to_contain_text("Alice's question about 429.")
    expect(differences).to_contain_text("Bob's question about 429.")
    expect(text_of(refused_save, 1)).to_have_value("Bob's question about 429.")


def test_overwriting_after_a_conflict_saves_my_version(refused_save: Page) -> None:
    refused_save.get_by_role("button", name="Overwrite with my version").click()

    expect(save_status(refused_save)).to_have_text("Saved (version 3).")
    refused_save.reload()
    expect(text_of(refused_save, 1)).to_have_value("Bob's question about 429.")


def test_the_choices_after_a_conflict_are_readable(refused_save: Page) -> None:
    conflict = refused_save.get_by_role("alert")
    expect(conflict.get_by_role("button", name="Overwrite with my version")).to_be_visible()

    assert unreadable_buttons(conflict) == []


def record_dialogs(page: Page) -> list[str]:
    """Accept every dialog the page opens; return the list of their types, filled as they come."""
    seen: list[str] = []

    def accept(dialog: Dialog) -> None:
        seen.append(dialog.type)
        dialog.accept()

    page.on("dialog", accept)
    return seen


def test_leaving_with_unsaved_changes_asks_first(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, SINGLE_TURN)
    dialogs = record_dialogs(editor)
    text_of(editor, 1).press_sequentially(" Briefly.")

    editor.get_by_role("link", name="Workspaces").click()

    expect(editor.get_by_role("heading", name="Workspaces")).to_be_visible()
    assert dialogs == ["beforeunload"]


def test_leaving_after_saving_does_not_ask(editor: Page, example_workspace: Workspace) -> None:
    open_editor(editor, example_workspace, SINGLE_TURN)
    dialogs = record_dialogs(editor)
    text_of(editor, 1).press_sequentially(" Briefly.")
    editor.get_by_role("button", name="Save").click()
    expect(save_status(editor)).to_have_text("Saved (version 2).")

    editor.get_by_role("link", name="Workspaces").click()

    expect(editor.get_by_role("heading", name="Workspaces")).to_be_visible()
    assert dialogs == []

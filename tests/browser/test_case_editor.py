"""Editing a case in a real browser: turns, files, roles and modes, with the preview following."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, Route, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Workspace
from tests.browser.pages import (
    MULTI_TURN,
    SINGLE_TURN,
    add_turn,
    attach_file,
    editor_url,
    file_of,
    input_turns,
    open_editor,
    question,
    role_of,
    sign_in,
    text_of,
    unreadable_buttons,
)

pytestmark = pytest.mark.browser


def test_adding_an_assistant_turn_puts_the_focus_in_its_text_box(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)

    editor.get_by_role("button", name="Add assistant turn").click()

    expect(text_of(editor, 5)).to_be_focused()
    expect(input_turns(editor)).to_have_count(5)
    expect(role_of(editor, 5)).to_have_value("assistant")


def test_typing_in_a_new_turn_shows_in_the_formatted_question(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)
    add_turn(editor, "assistant")

    editor.keyboard.type("Found it: the loop bound.")

    expect(question(editor)).to_contain_text("@[Assistant]:\nFound it: the loop bound.")


def test_typing_while_the_preview_is_loading_still_reaches_the_preview(
    editor: Page, example_workspace: Workspace
) -> None:
    """No keystroke may be lost: the preview must end up showing what the form holds."""
    open_editor(editor, example_workspace, SINGLE_TURN)
    held: list[Route] = []

    def hold_the_first_preview(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    editor.route("**/preview/", hold_the_first_preview)
    text_box = text_of(editor, 1)
    text_box.press("Control+End")
    text_box.press_sequentially(" Be brief.")
    expect(editor.locator("#preview")).to_have_class(re.compile(r"\bhtmx-request\b"))
    text_box.press_sequentially(" Thanks!")  # while the preview of " Be brief." is loading
    held[0].continue_()

    expect(question(editor)).to_have_text(re.compile(r"Be brief\. Thanks!$"))


def test_typing_in_the_candidate_answer_and_a_turn_at_once_previews_both(
    editor: Page, example_workspace: Workspace
) -> None:
    """The answer and the turns share one preview: whichever was typed last, the request that
    waits for the loading one is sent with what every field holds by then."""
    open_editor(editor, example_workspace, MULTI_TURN)
    held: list[Route] = []

    def hold_the_first_preview(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    editor.route("**/preview/", hold_the_first_preview)
    answer = editor.get_by_label("Candidate answer")
    answer.press_sequentially("Stop the loop")
    expect(editor.locator("#preview")).to_have_class(re.compile(r"\bhtmx-request\b"))
    text_of(editor, 2).fill("Where is the bug?")  # while the preview of the answer is loading
    answer.press_sequentially(" at i < items.length.")
    held[0].continue_()

    expect(question(editor)).to_contain_text("@[User]:\nWhere is the bug?")
    expect(editor.get_by_label("Judge prompt", exact=True).locator("pre")).to_contain_text(
        "[[ ## candidate_answer ## ]]\nStop the loop at i < items.length."
    )


def test_a_preview_the_server_fails_is_said_to_be_out_of_date_and_asked_for_again(
    editor: Page, example_workspace: Workspace, expected_console_errors: list[str]
) -> None:
    """A failed answer must not leave an older preview standing as if it were current."""
    # htmx logs the failed answer, and Chromium the failed load.
    expected_console_errors += [r"Response Status Error Code 500", r"status of 500"]
    open_editor(editor, example_workspace, SINGLE_TURN)
    failures: list[str] = []

    def fail_the_first_preview(route: Route) -> None:
        if failures:
            route.continue_()
        else:
            failures.append(route.request.url)
            route.fulfill(status=500, body="Server Error")

    editor.route("**/preview/", fail_the_first_preview)
    text_box = text_of(editor, 1)
    text_box.press("Control+End")
    text_box.press_sequentially(" Be brief.")

    notice = editor.locator("#preview-failed")
    expect(notice).to_have_text(
        "The preview is out of date: the server answered 500. Trying again in 1 s."
    )
    expect(question(editor)).to_have_text(re.compile(r"Be brief\.$"))
    expect(notice).to_be_hidden()


def test_text_typed_before_the_page_has_loaded_still_reaches_the_preview(
    editor: Page, example_workspace: Workspace
) -> None:
    """The page can be typed in as soon as it shows, before its scripts have run: what was
    typed (or pasted) then must reach the preview once they have."""
    held: list[Route] = []
    # The browser runs the page's deferred scripts, and htmx starts, only once all have loaded.
    editor.route("**/js/form-json.js", lambda route: held.append(route))
    editor.goto(editor_url(example_workspace, MULTI_TURN), wait_until="commit")
    text_of(editor, 2).fill("Where is the bug?")
    editor.get_by_label("Candidate answer").fill("Stop the loop at i < items.length.")
    assert editor.evaluate("document.readyState") == "interactive"  # still loading its scripts
    held[0].continue_()

    expect(question(editor)).to_contain_text("@[User]:\nWhere is the bug?")
    expect(editor.get_by_label("Judge prompt", exact=True).locator("pre")).to_contain_text(
        "[[ ## candidate_answer ## ]]\nStop the loop at i < items.length."
    )


def test_edits_the_browser_restores_on_back_are_previewed(
    editor: Page, example_workspace: Workspace
) -> None:
    """Going back to the editor, the browser puts the unsaved text back in its fields; the
    preview (rendered from the saved case) must follow them."""
    open_editor(editor, example_workspace, SINGLE_TURN)
    text_of(editor, 1).fill("An unsaved question.")
    expect(question(editor)).to_have_text("An unsaved question.")
    editor.once("dialog", lambda dialog: dialog.accept())  # "Leave site?": yes
    editor.get_by_role("link", name="History").click()
    expect(editor.get_by_role("heading", name="History", level=1)).to_be_visible()

    editor.go_back()

    expect(text_of(editor, 1)).to_have_value("An unsaved question.")
    expect(question(editor)).to_have_text("An unsaved question.")


def test_adding_a_user_turn_ends_the_question_with_a_user_turn(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)
    add_turn(editor, "user")

    editor.keyboard.type("Thanks, that fixed it!")

    expect(question(editor)).to_have_text(re.compile(r"\n\n@\[User\]:\nThanks, that fixed it!$"))


def test_attaching_a_guideline_file_shows_it_in_the_guidelines(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)
    guidelines = editor.get_by_label("Guidelines")
    expect(guidelines).to_contain_text("No guideline file is referenced.")

    attach_file(editor, 2, "prompts/code-review.instructions.md")

    expect(guidelines).to_contain_text('<file path="code-review.instructions.md">')
    expect(question(editor)).to_contain_text("<Attached: prompts/code-review.instructions.md>")


def test_attaching_any_other_file_embeds_it_in_the_question(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, SINGLE_TURN)

    attach_file(editor, 1, "src/cart.js")

    expect(question(editor)).to_contain_text('<file path="src/cart.js">\n// Shopping cart helpers')
    expect(editor.get_by_label("Guidelines")).to_contain_text("No guideline file is referenced.")


def test_a_missing_file_is_warned_about_next_to_its_turn(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)

    attach_file(editor, 2, "src/no-such-file.js")

    warnings = input_turns(editor).nth(1).locator(".turn-warnings")
    expect(warnings).to_contain_text('file "src/no-such-file.js" was not found')
    for other_turn in (0, 2, 3):
        expect(input_turns(editor).nth(other_turn).locator(".turn-warnings")).to_be_empty()


def test_a_turn_warning_goes_once_its_file_is_found(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)
    attach_file(editor, 2, "src/no-such-file.js")
    warnings = input_turns(editor).nth(1).locator(".turn-warnings")
    expect(warnings).to_contain_text('file "src/no-such-file.js" was not found')

    file_of(editor, 2).fill("src/cart.js")

    expect(warnings).to_be_empty()


def test_moving_a_turn_down_changes_the_order_in_the_question(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)
    expect(question(editor)).to_have_text(
        re.compile(r"@\[Assistant\]:\nThat error means.*@\[User\]:\nHere's the trace", re.DOTALL)
    )

    editor.get_by_role("button", name="Move turn 3 down").click()

    expect(role_of(editor, 3)).to_have_value("user")
    expect(role_of(editor, 4)).to_have_value("assistant")
    expect(question(editor)).to_have_text(
        re.compile(r"@\[User\]:\nHere's the trace.*@\[Assistant\]:\nThat error means", re.DOTALL)
    )


def test_moving_a_turn_up_changes_the_order_in_the_question(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)

    editor.get_by_role("button", name="Move turn 2 up").click()

    expect(role_of(editor, 1)).to_have_value("user")
    expect(role_of(editor, 2)).to_have_value("system")
    expect(question(editor)).to_have_text(
        re.compile(r"^@\[User\]:\nCheckout is broken.*\n\n@\[System\]:\nYou are a", re.DOTALL)
    )


def test_moving_a_turn_keeps_the_focus_on_its_move_button(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)

    editor.get_by_role("button", name="Move turn 3 up").click()

    # The turn is now the second; pressing the focused button again moves it further.
    expect(editor.get_by_role("button", name="Move turn 2 up")).to_be_focused()


def test_moving_a_turn_to_the_end_keeps_the_focus_in_that_turn(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)

    editor.get_by_role("button", name="Move turn 3 down").click()
    expect(role_of(editor, 4)).to_have_value("assistant")

    # Its "down" button is disabled now; the focus must not land on another turn's button,
    # where pressing Enter again would move that turn instead.
    expect(input_turns(editor).nth(3).locator(":focus")).to_have_count(1)


def test_changing_a_role_updates_the_preview_at_once(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, SINGLE_TURN)
    marker_line = editor.get_by_text(re.compile(r"^Role markers"))
    expect(marker_line).to_have_text("Role markers off: only one turn has visible content.")

    role_of(editor, 1).select_option("assistant")

    expect(marker_line).to_have_text("Role markers on: assistant turn present.")
    expect(question(editor)).to_have_text(re.compile(r"^@\[Assistant\]:\nWhat does HTTP"))


def test_a_second_turn_with_text_turns_role_markers_on(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, SINGLE_TURN)
    expect(question(editor)).to_have_text(re.compile(r"^What does HTTP status 429 mean"))

    add_turn(editor, "user")
    editor.keyboard.type("Is 503 handled the same way?")

    expect(editor.get_by_text(re.compile(r"^Role markers"))).to_have_text(
        "Role markers on: 2 turns with visible content."
    )
    expect(question(editor)).to_have_text(
        re.compile(r"^@\[User\]:\nWhat does HTTP.*\n\n@\[User\]:\nIs 503", re.DOTALL)
    )


def test_agent_mode_refers_to_files_instead_of_embedding_them(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)
    expect(question(editor)).to_contain_text('<file path="../../src/cart.js">\n// Shopping cart')

    editor.get_by_label("Agent (file references)").check()

    expect(question(editor)).to_contain_text('<file: path="../../src/cart.js">')
    expect(question(editor)).not_to_contain_text("// Shopping cart")


def test_the_judge_prompt_fills_in_the_candidate_answer(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)
    judge_prompt = editor.get_by_label("Judge prompt", exact=True).locator("pre")
    expect(judge_prompt).to_contain_text("[[ ## candidate_answer ## ]]\n{{candidate_answer}}")

    editor.get_by_label("Candidate answer").fill("Stop the loop at i < items.length.")

    expect(judge_prompt).to_contain_text(
        "[[ ## candidate_answer ## ]]\nStop the loop at i < items.length."
    )
    expect(judge_prompt).not_to_contain_text("{{candidate_answer}}")


def test_every_button_of_the_editor_is_readable(editor: Page, example_workspace: Workspace) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)

    assert unreadable_buttons(editor.locator("main")) == []


def test_a_wide_screen_shows_the_preview_beside_the_turns(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)

    turns = editor.get_by_role("region", name="Input turns")
    preview = editor.get_by_role("complementary", name="Preview")
    turns.scroll_into_view_if_needed()
    expect(turns).to_be_in_viewport()
    expect(preview).to_be_in_viewport()
    turns_box, preview_box = turns.bounding_box(), preview.bounding_box()
    assert turns_box is not None and preview_box is not None
    assert preview_box["x"] >= turns_box["x"] + turns_box["width"]


def test_a_narrow_screen_shows_the_turns_or_the_preview_at_full_width(
    new_page: Callable[..., Page],
    alice: User,
    example_workspace: Workspace,
    live_server: LiveServer,
) -> None:
    page = new_page(viewport={"width": 600, "height": 900})
    sign_in(page, alice, live_server.url)
    page.goto(editor_url(example_workspace, MULTI_TURN))

    turns = page.get_by_role("region", name="Input turns")
    preview = page.get_by_role("complementary", name="Preview")
    expect(turns).to_be_visible()
    expect(preview).to_be_hidden()
    turns_box = turns.bounding_box()
    page.get_by_role("group", name="Show").get_by_text("Preview").click()
    expect(preview).to_be_visible()
    expect(turns).to_be_hidden()
    preview_box = preview.bounding_box()
    assert turns_box is not None and preview_box is not None
    for box in (turns_box, preview_box):
        assert box["x"] >= 0 and box["x"] + box["width"] <= 600

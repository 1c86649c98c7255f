"""Warnings beside turns follow the preview both ways: shown when found, gone when fixed.

The preview clears every turn's warnings with one out-of-band element and puts back only those
of turns that have some (issue 6: fewer elements to render on every keystroke).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from evals_app.models import Workspace
from tests.browser.pages import MULTI_TURN, attach_file, file_of, input_turns, open_editor

pytestmark = pytest.mark.browser


def test_a_warning_goes_once_its_file_is_found_and_the_others_stay_empty(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)
    attach_file(editor, 2, "src/no-such-file.js")
    warnings = input_turns(editor).nth(1).locator(".turn-warnings")
    expect(warnings).to_contain_text('file "src/no-such-file.js" was not found')

    file_of(editor, 2).fill("src/cart.js")

    expect(warnings).to_be_empty()
    for turn in range(4):
        expect(input_turns(editor).nth(turn).locator(".turn-warnings")).to_be_empty()

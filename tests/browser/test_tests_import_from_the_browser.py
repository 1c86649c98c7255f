"""Import tests from another tool in a real browser: a promptfoo folder with a CSV is previewed
with its warnings, imported, and one of its tests opens in the editor with its preview
(docs/imports.md, "In the browser")."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from evals_app.models import Case, Workspace

pytestmark = pytest.mark.browser

FOLDER = (
    Path(__file__).resolve().parent.parent / "fixtures" / "imports" / "promptfoo" / "csv-metadata"
)


def test_a_promptfoo_folder_is_previewed_imported_and_opened_in_the_editor(
    editor: Page, example_workspace: Workspace
) -> None:
    editor.goto(example_workspace.get_absolute_url())
    editor.get_by_role("link", name="Import tests from another tool").click()
    editor.get_by_label("Files, a folder's files, or a .zip of them").set_input_files(
        [FOLDER / "promptfooconfig.yaml", FOLDER / "tests.csv"]
    )
    editor.get_by_label("Suite file").fill("evals/from-promptfoo.eval.yaml")
    editor.get_by_role("button", name="Preview").click()

    preview = editor.get_by_role("region", name="Preview")
    expect(preview).to_contain_text("Detected format: promptfoo.")
    expect(preview).to_contain_text("3 tests would be written into evals/from-promptfoo.eval.yaml")
    warnings = preview.get_by_role("list", name="Warnings about the files")
    expect(warnings).to_contain_text(
        "providers: kept in default_test.metadata.imported_unsupported"
    )
    rows = preview.locator("table.preview-table tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(1)).to_contain_text("prompt: Tell me about quantum physics")
    expect(rows.nth(1)).to_contain_text("contains, llm-rubric")
    assert not Case.objects.filter(suite__path="evals/from-promptfoo.eval.yaml").exists()

    editor.get_by_role("button", name="Import").click()
    expect(editor.get_by_text("Imported 3 tests into a new suite")).to_be_visible()
    editor.get_by_role("link", name="Open the suite").click()
    editor.get_by_role("link", name="tests-2").click()

    # The editor's preview shows what AgentV sends: the suite's prompt with the row's variable.
    expanded = editor.get_by_role("region", name="Expanded test tests-2")
    expect(expanded).to_contain_text("Formatted question")
    expect(expanded).to_contain_text("Tell me about quantum physics")
    expect(expanded).to_contain_text("Does this describe quantum physics accurately")

"""Running a case with AgentV from the editor: edit, Run, see the answer and the grades, edit
again, Run, and the compare page shows how the verdict changed (docs/runs.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Case, Workspace
from evals_app.services.runs.targets import MOCK_ANSWER
from tests.browser.conftest import editor_of
from tests.browser.pages import editor_url, save_status, sign_in
from tests.factories import imported_workspace, write_files

TESTS = """\
description: Arithmetic.
tests:
  - id: add
    input: What is 2 + 2?
    assertions:
      - type: contains
        value: an answer
"""


@pytest.fixture
def workspace(transactional_db: None, tmp_path: Path, settings: Any) -> Workspace:
    settings.AGENTV_RUNS_ENABLED = True
    settings.AGENTV_TARGETS_FILE = ""
    return imported_workspace(write_files(tmp_path, {"evals/math.eval.yaml": TESTS}))


def run_with(page: Page, value: str, version: int) -> None:
    """Change the assertion's text, save, and run with the mock target."""
    page.get_by_label("Text", exact=True).fill(value)
    page.get_by_role("button", name="Save").click()
    expect(save_status(page)).to_have_text(f"Saved (version {version}).")
    page.get_by_label("Target").select_option("mock")
    page.get_by_role("button", name="Run", exact=True).click()


def test_run_shows_the_answer_and_grades_and_compare_shows_the_change(
    page: Page, live_server: LiveServer, workspace: Workspace
) -> None:
    sign_in(page, editor_of(workspace, "alice"), live_server.url)
    page.goto(editor_url(workspace, "add"))
    panel = page.locator("#run-panel")
    expect(panel).to_contain_text("Run with AgentV")
    expect(page.locator(".agentv-version")).to_have_text("AgentV 4.42.4")

    run_with(page, "fixed answer", version=2)
    expect(panel).to_contain_text("Done: 1 of 1 passed", timeout=60_000)
    expect(panel.get_by_role("region", name="Answer")).to_contain_text(MOCK_ANSWER)
    expect(panel).to_contain_text('✓ Output contains "fixed answer"')

    run_with(page, "nowhere to be found", version=3)
    expect(panel).to_contain_text("Done: 0 of 1 passed", timeout=60_000)
    expect(panel).to_contain_text('✗ Output does not contain "nowhere to be found"')

    case = Case.objects.get(case_id="add")
    page.goto(f"{editor_url(workspace, 'add')}compare/?from=2&to=3")
    changes = page.get_by_role("region", name="Runs with AgentV")
    expect(changes).to_contain_text("mock: revision 2 pass → revision 3 fail")
    expect(changes).to_contain_text("(this edit turned it from pass to fail)")
    assert case.run_results.count() == 2

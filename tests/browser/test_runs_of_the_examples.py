"""After `make run`'s setup, Run on an example case grades it, whatever the spelling of its
suite: the example of today's format runs with the pinned AgentV too, each value of its list
variable a result of its own (docs/runs.md, "When AgentV cannot read a suite's spelling")."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from evals_app.models import Workspace
from evals_app.services.runs.agentv_cli import agentv_status
from tests.browser.pages import editor_url

GRADED = re.compile(r"^(Pass|Fail|Error)$")


@pytest.fixture(autouse=True)
def runs_on(settings: Any) -> None:
    """As `make run` sets them: runs on, commands off, the mock target offered."""
    settings.AGENTV_RUNS_ENABLED = True
    settings.AGENTV_RUNS_ALLOW_COMMANDS = False
    settings.AGENTV_TARGETS_FILE = ""


@pytest.mark.parametrize(
    ("case_id", "tests"),
    [
        ("opening-hours-{{ language }}", ["opening-hours-English", "opening-hours-French"]),
        ("http-429-meaning", ["http-429-meaning"]),
    ],
)
def test_run_on_an_example_case_shows_a_grade(
    editor: Page, example_workspace: Workspace, case_id: str, tests: list[str]
) -> None:
    editor.goto(editor_url(example_workspace, case_id))
    run_button = editor.get_by_role("button", name="Run", exact=True)
    expect(run_button).to_be_enabled()
    editor.locator("#run-target").select_option("mock")
    run_button.click()
    panel = editor.locator("#run-panel")
    expect(panel).to_contain_text("Done:", timeout=90_000)
    expect(panel).to_contain_text(f"AgentV {agentv_status().version}")
    for test_id in tests:
        result = panel.get_by_role("article", name=f"Result of {test_id}")
        # A grade: a verdict with a score (the mock target, a judge of itself, fails rubrics).
        expect(result.locator("h3 .verdict")).to_have_text(GRADED)
        expect(result.locator("h3 .score")).to_contain_text("score ")

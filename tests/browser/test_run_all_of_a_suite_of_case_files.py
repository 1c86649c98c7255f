"""Run all on a suite whose cases live in another file (`tests: ./cases.yaml`) runs every case
of that file with the suite, as AgentV reads them (docs/runs.md, "The run folder")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Membership, Suite
from tests.browser.conftest import editor_of
from tests.browser.pages import sign_in
from tests.factories import imported_workspace, member, write_files

SUITE = "evals/support.eval.yaml"
CASES = """\
- id: answers-the-sum
  input: What is 2 + 2?
  assertions:
    - type: contains
      value: fixed answer
- id: names-the-capital
  input: What is the capital of France?
  assertions:
    - type: contains
      value: Paris
"""


@pytest.fixture(autouse=True)
def runs_on(settings: Any) -> None:
    """As `make run` sets them: runs on, commands off, the mock target offered."""
    settings.AGENTV_RUNS_ENABLED = True
    settings.AGENTV_RUNS_ALLOW_COMMANDS = False
    settings.AGENTV_TARGETS_FILE = ""


def test_run_all_on_a_suite_of_a_file_of_cases_runs_every_case(
    page: Page, live_server: LiveServer, tmp_path: Path, transactional_db: None
) -> None:
    folder = write_files(
        tmp_path, {SUITE: "description: Support.\ntests: ./cases.yaml\n", "evals/cases.yaml": CASES}
    )
    workspace = imported_workspace(folder, name="Cases elsewhere")
    member(workspace, Membership.Role.OWNER)
    sign_in(page, editor_of(workspace, "alice"), live_server.url)
    suite = Suite.objects.get(workspace=workspace, path=SUITE)
    page.goto(live_server.url + reverse("suite_detail", args=[workspace.slug, suite.pk]))

    page.locator("#suite-run-target").select_option("mock")
    run_all = page.locator("#run-all")
    expect(run_all).to_have_text("Run all 2 cases")
    run_all.click()

    # The mock's fixed answer holds the one phrase and not the other.
    passed = page.get_by_role("article", name="Result of answers-the-sum")
    expect(passed.locator(".verdict").first).to_have_text("Pass", timeout=90_000)
    failed = page.get_by_role("article", name="Result of names-the-capital")
    expect(failed.locator(".verdict").first).to_have_text("Fail")

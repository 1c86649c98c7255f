"""After Duplicate or Move selected, the suite page's Run all button counts the cases the
suite now has, without a reload."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Workspace
from tests.browser.pages import sign_in

pytestmark = pytest.mark.browser

REVIEW_SUITE = "evals/coding/review.yaml"  # four cases


@pytest.fixture
def runs_enabled(settings: Any) -> None:
    settings.AGENTV_RUNS_ENABLED = True
    settings.AGENTV_TARGETS_FILE = ""


def test_run_all_follows_duplicate_and_move_selected(
    page: Page,
    alice: User,
    example_workspace: Workspace,
    live_server: LiveServer,
    runs_enabled: None,
) -> None:
    suite = example_workspace.suites.get(path=REVIEW_SUITE)
    first = suite.cases.order_by("position").first()
    assert first is not None
    sign_in(page, alice, live_server.url)
    page.goto(reverse("suite_detail", args=[example_workspace.slug, suite.pk]))
    run_all = page.locator("#run-all")
    expect(run_all).to_have_text("Run all 4 cases")

    page.get_by_role("button", name=f"Duplicate {first.case_id}").click()
    expect(page.get_by_role("status").first).to_contain_text("Duplicated")
    expect(run_all).to_have_text("Run all 5 cases")

    page.get_by_role("checkbox", name=f"Select {first.case_id}", exact=True).check()
    page.get_by_label("Move to").select_option(label="evals/coding/debug-session.yaml")
    page.get_by_role("button", name="Move selected").click()
    expect(page.get_by_role("status").first).to_contain_text("Moved to")
    expect(run_all).to_have_text("Run all 4 cases")

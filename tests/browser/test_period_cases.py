"""A case of today's `tests` files in a real browser: a tool call and content written as a
mapping are edited, saved and still there after a reload, with a clean console."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Case, Membership, Workspace
from evals_app.services.imports.folders import import_workspace
from tests.browser.conftest import editor_of
from tests.browser.pages import editor_url, save_status, sign_in
from tests.factories import member
from tests.imports.test_periods import PERIODS

pytestmark = pytest.mark.browser

CASE = "content-mapping"  # a mapping as content, and an expected message of one tool call


@pytest.fixture
def periods(transactional_db: None) -> Workspace:
    workspace = import_workspace(PERIODS, "Periods").workspace
    member(workspace, Membership.Role.OWNER)
    return workspace


@pytest.fixture
def carol(periods: Workspace) -> User:
    return editor_of(periods, "carol")


def test_a_tool_calls_output_is_saved_and_kept_beside_a_mapping_content(
    page: Page, periods: Workspace, carol: User, live_server: LiveServer
) -> None:
    sign_in(page, carol, live_server.url)
    page.goto(editor_url(periods, CASE))
    # A `tests` file is formatted by the AgentV 2026 profile: a preview per expanded test.
    expect(page.get_by_role("region", name=f"Expanded test {CASE}")).to_be_visible()
    mapping = page.get_by_label("Content of turn 1, a mapping (JSON)")
    output = page.get_by_label("Output (JSON)")
    expect(output).to_have_value(json.dumps({"price": 9, "currency": "EUR"}, indent=2))

    output.fill('{"price": 12, "currency": "EUR"}')
    page.get_by_role("button", name="Save").click()
    expect(save_status(page)).to_have_text("Saved (version 2).")
    page.reload()

    expect(page.get_by_label("Output (JSON)")).to_have_value(
        json.dumps({"price": 12, "currency": "EUR"}, indent=2)
    )
    expect(mapping).to_have_value(
        json.dumps(
            {"question": "Which plan fits?", "budget": 20, "regions": ["eu", "us"]}, indent=2
        )
    )
    document = Case.objects.get(suite__workspace=periods, case_id=CASE).document
    assert document["expected_output"][1] == {
        "role": "assistant",
        "tool_calls": [
            {
                "tool": "quote_plan",
                "input": {"plan": "basic"},
                "output": {"price": 12, "currency": "EUR"},
            }
        ],
    }
    assert document["input"][0]["content"] == {
        "question": "Which plan fits?",
        "budget": 20,
        "regions": ["eu", "us"],
    }

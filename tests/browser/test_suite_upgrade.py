"""An editor upgrades a 2025 suite to today's format from its page: first what changes, case by
case, then the upgrade, each case's new revision and an approval it dismissed."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Membership, ReviewStatus, Workspace
from evals_app.services.imports.folders import import_workspace
from tests.browser.conftest import editor_of
from tests.browser.pages import sign_in
from tests.factories import member

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "upgrade"


@pytest.fixture
def older_files(transactional_db: None) -> Workspace:
    workspace = import_workspace(FIXTURES, "Older files").workspace
    member(workspace, Membership.Role.OWNER)
    return workspace


@pytest.fixture
def alice(older_files: Workspace) -> User:
    return editor_of(older_files, "alice")


def test_upgrade_a_2025_suite_after_seeing_what_changes(
    page: Page, live_server: LiveServer, older_files: Workspace, alice: User
) -> None:
    older_files.suites.get(path="evals/seeds.yaml").cases.filter(case_id="refund").update(
        status=ReviewStatus.APPROVED
    )
    sign_in(page, alice, live_server.url)
    page.goto(older_files.get_absolute_url())
    page.get_by_role("link", name="evals/seeds.yaml").click()

    page.get_by_role("link", name="Upgrade to today's format").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Upgrade evals/seeds.yaml to today's format"
    )
    summary = page.get_by_role("region", name="What changes")
    expect(summary).to_contain_text("2 of 2 cases change.")
    expect(summary.locator(".guideline-cases")).to_have_text("order-status")
    expect(summary).to_contain_text("judges/shared.md copied to judges/shared.v2026.md")
    order = page.get_by_role("region", name="order-status")
    expect(order).to_contain_text("Guideline files now reach the model inline.")
    yaml = order.get_by_role("table", name="order-status: YAML before and after")
    before = yaml.locator("tr:not(.equal) td:first-child")
    after = yaml.locator("tr:not(.equal) td:last-child")
    expect(before.filter(has_text="input_messages:")).to_have_count(1)
    expect(after.filter(has_text="vars:")).to_have_count(1)
    expect(order).to_contain_text("Formatted question: AgentV 2025 → AgentV 2026")
    expect(order).to_contain_text("Where is my order 1042?")

    page.get_by_role("button", name="Upgrade").click()
    expect(
        page.get_by_text("Upgraded evals/seeds.yaml to today's format: 2 cases changed")
    ).to_be_visible()
    page.get_by_role("link", name="Open the suite").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("evals/seeds.yaml")
    expect(page.get_by_role("link", name="Upgrade to today's format")).to_have_count(0)

    page.get_by_role("link", name="refund", exact=True).click()
    review = page.get_by_role("region", name="Review")
    expect(review).to_contain_text("In review")
    expect(review).to_contain_text("dismissed the approval by editing")
    page.get_by_role("link", name="History").click()
    latest = page.get_by_role("table").locator("tbody tr").first
    expect(latest).to_contain_text("alice")
    expect(latest).to_contain_text("upgraded to today's format")

"""A today's test in a real browser: the owner sets the checkout folder, and the editor's
preview of each expanded test follows typing and the agent mode (docs/formatting.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Case, Membership
from evals_app.services.imports.folders import import_workspace
from tests.browser.pages import sign_in
from tests.factories import user

pytestmark = pytest.mark.browser

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "today"


def test_the_checkout_folder_reaches_the_agent_mode_preview(
    page: Page, live_server: LiveServer
) -> None:
    workspace = import_workspace(FIXTURE, "Today").workspace
    owner = user("olive")
    Membership.objects.create(workspace=workspace, user=owner, role=Membership.Role.OWNER)
    sign_in(page, owner, live_server.url)

    page.goto(f"/w/{workspace.slug}/")
    page.get_by_role("textbox", name="Checkout folder").fill("/srv/shop-evals")
    page.get_by_role("button", name="Save folder").click()
    expect(page.get_by_text("Checkout folder set to /srv/shop-evals.")).to_be_visible()

    case = Case.objects.get(suite__workspace=workspace, case_id="greet-{{ lang }}")
    page.goto(f"/w/{workspace.slug}/suites/{case.suite.pk}/cases/{case.pk}/")
    tests = page.locator("section.expanded-test")
    expect(tests).to_have_count(2)
    expect(tests.nth(1).locator(".formatted-question")).to_contain_text("Greet the customer in fr.")

    page.get_by_label("Agent (file references)").check()

    expect(tests.nth(0).locator(".formatted-question")).to_contain_text(
        '<file: path="/srv/shop-evals/docs/menu.md">'
    )
    expect(tests.nth(0).locator(".system-message")).to_have_text("You work at Tea & Co.")

"""A suite's settings in the browser: its top-level fields edited as YAML (a mistake shown with
its line, then fixed), its profile switched, each shown on the suite page and in the editor."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Suite
from tests import factories
from tests.browser.pages import sign_in

pytestmark = pytest.mark.browser


def test_edit_the_fields_of_a_suite_and_switch_its_profile(
    page: Page,
    live_server: LiveServer,
    transactional_db: None,
    expected_console_errors: list[str],
) -> None:
    expected_console_errors.append(r"/settings/: console error .*status of 422")  # the refusal
    workspace = factories.workspace("Support evals")
    suite = factories.suite(workspace, "evals/refunds.yaml")
    factories.case(suite, "refund-twice")
    account = factories.member(workspace, "editor", "alice")
    sign_in(page, account, live_server.url)

    page.goto(f"/w/{workspace.slug}/suites/{suite.pk}/")
    expect(page.get_by_text("Formatted by AgentV 2025")).to_be_visible()
    page.get_by_role("link", name="Suite settings").click()
    fields = page.get_by_label("Top-level fields (YAML)")
    expect(fields).to_have_value("$schema: agentv-eval-v2\n")

    fields.fill("$schema: agentv-eval-v2\ndescription: [Refunds\n")
    page.get_by_role("button", name="Save fields").click()
    expect(page.get_by_text("Line 3: not valid YAML")).to_be_visible()
    expect(page.get_by_label("Top-level fields (YAML)")).to_have_value(
        "$schema: agentv-eval-v2\ndescription: [Refunds\n"
    )

    page.get_by_label("Top-level fields (YAML)").fill(
        "$schema: agentv-eval-v2\ndescription: Refunds, asked for twice or late.\n"
    )
    page.get_by_role("button", name="Save fields").click()
    expect(page.get_by_text("Refunds, asked for twice or late.", exact=True)).to_be_visible()
    expect(page.get_by_text("description added")).to_be_visible()

    page.get_by_role("link", name="Suite settings").click()
    page.get_by_role("combobox", name="Profile").select_option("agentv-2026")
    page.get_by_role("button", name="Switch profile").click()
    expect(page.get_by_text("evals/refunds.yaml is now formatted by AgentV 2026")).to_be_visible()

    page.get_by_role("link", name="refund-twice").click()
    expect(page.get_by_text("Formatted by AgentV 2026")).to_be_visible()

    page.get_by_role("link", name="Support evals").click()
    page.get_by_role("link", name="Activity").click()
    entries = page.locator("ol.activity > li")
    expect(entries.nth(0)).to_contain_text("alice changed the profile of suite evals/refunds.yaml")
    expect(entries.nth(1)).to_contain_text("alice changed the fields of suite evals/refunds.yaml")

    stored = Suite.objects.get(pk=suite.pk)
    assert list(stored.document) == ["$schema", "description", "evalcases"]
    assert stored.profile == "agentv-2026"

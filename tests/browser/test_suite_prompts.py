"""A suite's prompts in the browser: a prompt added to the card (htmx swaps the card alone),
saved, and the tests AgentV runs counted again under it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Case, Suite
from tests import factories
from tests.browser.pages import sign_in

pytestmark = pytest.mark.browser


def test_add_a_prompt_and_see_each_case_run_once_more(
    page: Page, live_server: LiveServer, transactional_db: None
) -> None:
    workspace = factories.workspace("Help widget")
    document = {"name": "help", "prompts": ["{{ input }}"], "tests": [None]}
    suite = factories.suite(
        workspace,
        "evals/help.eval.yaml",
        document=document,
        cases_key="tests",
        profile="agentv-2026",
    )
    test = {
        "id": "opening-hours-{{ language }}",
        "vars": {"language": ["English", "French"], "input": "Is support open at the weekend?"},
    }
    Case.objects.create(suite=suite, position=0, case_id=test["id"], document=test)
    account = factories.member(workspace, "editor", "alice")
    sign_in(page, account, live_server.url)

    page.goto(f"/w/{workspace.slug}/suites/{suite.pk}/settings/")
    expect(page.locator("#expanded-count")).to_contain_text("1 case run as 2 tests")
    expect(page.get_by_role("cell", name="opening-hours-French", exact=True)).to_be_visible()

    page.get_by_role("button", name="Add a template").click()
    # htmx swapped the card: the page is still the settings page, not the form's answer.
    expect(page).to_have_url(re.compile(r"/settings/$"))
    added = page.get_by_label("Prompt 2 (template)")
    expect(added).to_be_focused()
    added.fill("Answer in one sentence. {{ input }}")
    page.get_by_role("button", name="Save prompts").click()

    expect(page.get_by_text("prompts changed (2 prompts)")).to_be_visible()
    expect(page.locator("#expanded-count")).to_contain_text("1 case run as 4 tests")
    expect(page.get_by_label("Prompt 2 (template)")).to_have_value(
        "Answer in one sentence. {{ input }}"
    )
    assert Suite.objects.get(pk=suite.pk).document["prompts"] == [
        "{{ input }}",
        "Answer in one sentence. {{ input }}",
    ]

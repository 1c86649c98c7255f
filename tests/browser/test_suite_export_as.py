"""Export as… in the browser: a viewer opens it from the suite page, sees what each format
leaves out, and downloads the suite as a promptfoo config and as chat JSONL."""

from __future__ import annotations

import json

import pytest
import yaml
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests import factories
from tests.browser.pages import sign_in

pytestmark = pytest.mark.browser


def test_a_viewer_downloads_a_suite_in_both_formats(
    page: Page, live_server: LiveServer, transactional_db: None
) -> None:
    workspace = factories.workspace("Support evals")
    suite = factories.suite(workspace, "evals/refunds.yaml")
    factories.case(suite, "refund-twice", ("user", "I was charged twice."))
    sign_in(page, factories.member(workspace, "viewer", "vera"), live_server.url)

    page.goto(f"/w/{workspace.slug}/suites/{suite.pk}/")
    page.get_by_role("link", name="Export as…").click()
    expect(page.get_by_role("heading", name="Export evals/refunds.yaml as…")).to_be_visible()
    chat = page.get_by_role("region", name="chat JSONL (messages)")
    chat.get_by_text("warning").click()
    expect(chat.get_by_text('case "refund-twice", `expected_output`: none')).to_be_visible()

    with page.expect_download() as promptfoo_download:
        page.get_by_role("link", name="Download refunds.promptfoo.yaml").click()
    with page.expect_download() as chat_download:
        chat.get_by_role("link", name="Download refunds.chat.jsonl").click()

    promptfoo = promptfoo_download.value
    assert promptfoo.suggested_filename == "refunds.promptfoo.yaml"
    config = yaml.safe_load(promptfoo.path().read_text(encoding="utf-8"))
    assert config["tests"][0]["vars"]["messages"] == [
        {"role": "user", "content": "I was charged twice."}
    ]
    assert config["tests"][0]["assert"] == [
        {"type": "llm-rubric", "value": "Answers the question."}
    ]
    lines = chat_download.value.path().read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == [
        {"messages": [{"role": "user", "content": "I was charged twice."}]}
    ]

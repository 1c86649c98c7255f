"""Logging in and finding a case by following links, as a new user would."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect

from evals_app.models import Workspace
from tests.browser.pages import editor_url, log_in

pytestmark = pytest.mark.browser


def test_log_in_and_reach_the_editor_by_following_links(
    page: Page, alice: User, example_workspace: Workspace
) -> None:
    log_in(page, alice)
    page.get_by_role("link", name="Example workspace").click()
    page.get_by_role("link", name="evals/coding/debug-session.yaml").click()
    page.get_by_role("link", name="debug-checkout-typeerror").click()

    expect(page.get_by_role("heading", name="debug-checkout-typeerror", level=1)).to_be_visible()
    expect(page.get_by_label("Formatted question")).to_contain_text("@[Assistant]:")


@pytest.mark.parametrize(
    "page_name", ["workspace list", "workspace", "suite", "case editor", "case YAML"]
)
def test_every_page_requires_login(
    page: Page, example_workspace: Workspace, page_name: str
) -> None:
    editor = editor_url(example_workspace, "debug-checkout-typeerror")
    urls = {
        "workspace list": reverse("workspace_list"),
        "workspace": example_workspace.get_absolute_url(),
        "suite": editor.split("cases/")[0],
        "case editor": editor,
        "case YAML": f"{editor}yaml/",
    }
    page.goto(urls[page_name])

    expect(page).to_have_url(re.compile(r"/login/\?next="))
    expect(page.get_by_label("Username")).to_be_visible()
    expect(page.get_by_label("Password")).to_be_visible()

"""The API's docs page and the API tokens page in a browser: they work, and the console stays
clean (no error, no Content Security Policy violation: the fixtures fail the test on any)."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.pages import PASSWORD, sign_in
from tests.factories import user

pytestmark = pytest.mark.browser


@pytest.fixture
def alice(transactional_db: None) -> User:
    return user("alice", PASSWORD)


def test_the_docs_page_shows_every_endpoint(page: Page, live_server: LiveServer) -> None:
    page.goto(f"{live_server.url}/api/v1/docs")

    expect(page.get_by_role("heading", name=re.compile("agentv-web API"))).to_be_visible()
    for path in (
        "/api/v1/workspaces",
        "/api/v1/workspaces/{slug}/cases",
        "/api/v1/workspaces/{slug}/case/review",
        "/api/v1/workspaces/{slug}/formatted",
    ):
        expect(page.get_by_text(path, exact=True).first).to_be_visible()
    page.get_by_text("/api/v1/workspaces/{slug}/case/review", exact=True).first.click()
    expect(page.get_by_text(re.compile("Submitting needs the editor role"))).to_be_visible()
    page.wait_for_load_state("networkidle")


def test_a_token_made_on_the_tokens_page_opens_the_api(
    page: Page, alice: User, live_server: LiveServer
) -> None:
    sign_in(page, alice, live_server.url)
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="API tokens").click()
    page.get_by_label("Name").fill("laptop")
    page.get_by_role("button", name="Create token").click()

    token = page.get_by_label("Copy it now").input_value()
    answer = page.request.get(
        f"{live_server.url}/api/v1/workspaces", headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status == 200 and json.loads(answer.text())["items"] == []

    page.goto(f"{live_server.url}/account/api-tokens/")
    expect(page.get_by_label("Copy it now")).to_have_count(0)
    page.get_by_role("button", name="Revoke laptop").click()
    expect(page.get_by_text("Revoked the token laptop")).to_be_visible()
    assert (
        page.request.get(
            f"{live_server.url}/api/v1/workspaces", headers={"Authorization": f"Bearer {token}"}
        ).status
        == 401
    )


def test_reloading_the_new_token_page_creates_no_second_token(
    page: Page, alice: User, live_server: LiveServer
) -> None:
    sign_in(page, alice, live_server.url)
    page.goto(f"{live_server.url}/account/api-tokens/")
    page.get_by_label("Name").fill("laptop")
    page.get_by_role("button", name="Create token").click()
    expect(page.get_by_label("Copy it now")).to_be_visible()

    page.reload()

    expect(page.get_by_label("Copy it now")).to_have_count(0)
    expect(page.get_by_role("button", name="Revoke laptop")).to_have_count(1)
    assert alice.api_tokens.count() == 1


def test_the_copy_button_copies_the_new_token(
    page: Page, alice: User, live_server: LiveServer
) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sign_in(page, alice, live_server.url)
    page.goto(f"{live_server.url}/account/api-tokens/")
    page.get_by_label("Name").fill("laptop")
    page.get_by_role("button", name="Create token").click()
    token = page.get_by_label("Copy it now").input_value()

    page.get_by_role("button", name="Copy the token").click()

    expect(page.get_by_text("Copied to the clipboard.")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == token

"""At a phone's width the header keeps the app's name on one line; the account links wrap."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page
from pytest_django.live_server_helper import LiveServer

from tests.browser.pages import sign_in

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def test_the_apps_name_stays_on_one_line_at_390_px(
    new_page: Callable[..., Page], alice: User, live_server: LiveServer
) -> None:
    page = new_page(PHONE)
    sign_in(page, alice, live_server.url)
    page.goto(reverse("workspace_list"))
    brand = page.get_by_role("link", name="agentv-web")

    box = brand.bounding_box()
    line_height = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.brand')).lineHeight) || 24"
    )

    assert box is not None
    assert box["height"] < 1.5 * line_height
    assert int(page.evaluate("document.documentElement.scrollWidth")) <= PHONE["width"]

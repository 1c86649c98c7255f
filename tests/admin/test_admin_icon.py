"""The admin's pages name the app's icon, so no browser asks for a /favicon.ico that 404s."""

from __future__ import annotations

import pytest
from django.templatetags.static import static
from django.test import Client
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("page", ["admin:index", "admin:evals_app_workspace_changelist"])
def test_every_admin_page_links_the_apps_icon(page: str) -> None:
    client = Client()
    client.force_login(factories.admin())

    html = client.get(reverse(page)).content.decode()

    assert f'<link rel="icon" href="{static("favicon.svg")}" type="image/svg+xml">' in html


def test_the_admin_login_page_links_the_apps_icon() -> None:
    html = Client().get(reverse("admin:login")).content.decode()
    assert f'href="{static("favicon.svg")}"' in html

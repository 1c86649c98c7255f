"""Guessing passwords is throttled (django-axes): after AGENTV_LOGIN_FAILURE_LIMIT failures for one
username from one address, that pair is locked out for a while, and the login page says so."""

from __future__ import annotations

from html import unescape

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def log_in(client: Client, username: str, password: str, address: str = "10.0.0.1") -> int:
    response = client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )
    return response.status_code


def fail_until_locked(client: Client, username: str = "alice") -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, username, "wrong password")


def test_the_limit_and_lockout_time_are_the_documented_defaults() -> None:
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60


def test_failures_below_the_limit_still_let_the_right_password_in(client: Client) -> None:
    factories.user("alice", PASSWORD)
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, "alice", "wrong password") == 200

    assert log_in(client, "alice", PASSWORD) == 302


def test_after_the_limit_even_the_right_password_is_refused_with_a_clear_message(
    client: Client,
) -> None:
    factories.user("alice", PASSWORD)
    fail_until_locked(client)

    response = client.post(
        reverse("login"), {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1"
    )

    assert response.status_code == 429
    html = unescape(response.content.decode())
    assert "Too many failed logins" in html
    assert "blocked for 15 minutes" in html
    assert '<form method="post" action="/login/">' in html  # the page is still the login page
    assert "_auth_user_id" not in client.session


def test_the_lock_holds_for_one_username_from_one_address(client: Client) -> None:
    factories.user("alice", PASSWORD)
    factories.user("bob", PASSWORD)
    fail_until_locked(client, "alice")

    assert log_in(client, "bob", PASSWORD) == 302
    assert log_in(Client(), "alice", PASSWORD, address="10.0.0.2") == 302
    assert log_in(Client(), "alice", PASSWORD, address="10.0.0.1") == 429

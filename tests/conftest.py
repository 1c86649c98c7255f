"""Fixtures shared by every test layer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from tests.factories import admin

REPOSITORY = Path(__file__).resolve().parent.parent
EXAMPLES = REPOSITORY / "examples"


@pytest.fixture
def example_root() -> Path:
    """The example workspace shipped in the repository."""
    return EXAMPLES


@pytest.fixture
def signed_in(client: Client, db: None) -> Client:
    """The test client, logged in as a superuser, who may do anything in any workspace (roles
    are tested on their own, in test_permissions.py)."""
    client.force_login(admin())
    return client


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """Tests create many accounts; the production hasher is deliberately slow."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

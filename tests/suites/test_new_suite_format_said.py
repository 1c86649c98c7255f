"""The new-suite form says why it offers only today's format in a workspace without older
suites (docs/user-guide.md, "Workspaces and suites")."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db

WHY = 'id="new-suite-format-why">A new suite is written in today\'s format'


def page(with_older_suite: bool) -> str:
    workspace = factories.workspace()
    if with_older_suite:
        factories.suite(workspace, "evals/old.yaml")  # a 2025 suite
    client = Client()
    client.force_login(factories.admin())
    return client.get(reverse("workspace_detail", args=[workspace.slug])).content.decode()


def test_a_workspace_without_older_suites_says_why_it_offers_only_todays_format() -> None:
    html = page(with_older_suite=False)
    assert WHY in html
    assert "today's AgentV refuses such files" in html


def test_a_workspace_with_older_suites_offers_both_and_needs_no_explanation() -> None:
    html = page(with_older_suite=True)
    assert 'value="agentv-2025"' in html
    assert "new-suite-format-why" not in html

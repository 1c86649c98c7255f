"""Parameters holding NUL characters (which PostgreSQL text cannot store) are answered 400,
naming the field, before any view reads them."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import Workspace
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def team() -> Workspace:
    return factories.workspace()


def test_a_query_parameter_with_a_nul_is_refused_naming_it(signed_in: Client) -> None:
    response = signed_in.get(reverse("workspace_list"), {"q": "a\x00b"})

    assert response.status_code == 400
    assert b"q: text cannot hold NUL characters." in response.content


def test_a_form_field_with_a_nul_is_refused_and_nothing_is_stored(
    signed_in: Client, team: Workspace
) -> None:
    url = reverse("file_create", args=[team.slug])

    response = signed_in.post(url, {"path": "notes.md", "text": "one\x00two"})

    assert response.status_code == 400
    assert b"text: text cannot hold NUL characters." in response.content
    assert not team.files.exists()


def test_the_api_refuses_a_nul_in_json(team: Workspace) -> None:
    client = Client()
    token = factories.api_token(factories.member(team, "viewer"))

    response = client.get(
        f"/api/v1/workspaces/{team.slug}/cases",
        {"suite": "evals/\x00.yaml"},
        headers={"Authorization": f"Bearer {token}"},
    )

    assert response.status_code == 400
    assert response.json() == {"message": "suite: text cannot hold NUL characters."}

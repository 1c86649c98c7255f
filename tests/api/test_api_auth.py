"""Who is calling the API: a token in `Authorization: Bearer`, else 401, always JSON."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import get_resolver

from evals_app.models import ApiToken
from evals_app.services.api_tokens import revoke_token
from tests.api.api_calls import ApiClient
from tests.factories import api_token, member, workspace

pytestmark = pytest.mark.django_db
TOKEN_REQUIRED = {
    "message": "A valid API token is required: send the header 'Authorization: Bearer TOKEN'."
}
ENDPOINTS = [
    ("get", "/api/v1/workspaces"),
    ("get", "/api/v1/workspaces/team/cases"),
    ("get", "/api/v1/workspaces/team/case?suite=s.yaml&id=a"),
    ("put", "/api/v1/workspaces/team/case?suite=s.yaml&id=a"),
    ("post", "/api/v1/workspaces/team/case/review?suite=s.yaml&id=a"),
    ("get", "/api/v1/workspaces/team/formatted?suite=s.yaml&id=a"),
]


@pytest.fixture
def token() -> str:
    return api_token(member(workspace("Team"), "owner"))


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        "Bearer",
        "Bearer ",
        "Bearer agentv_not-a-token",
        "Basic dXNlcjpwYXNz",
        "Token {token}",
        "Bearer {token}x",
    ],
)
@pytest.mark.parametrize(("method", "url"), ENDPOINTS)
def test_a_missing_or_wrong_token_is_401(
    token: str, header: str | None, method: str, url: str
) -> None:
    headers = {} if header is None else {"Authorization": header.format(token=token)}

    response = getattr(Client(), method)(url, headers=headers, content_type="application/json")

    assert response.status_code == 401
    assert response.json() == TOKEN_REQUIRED
    assert response["WWW-Authenticate"] == "Bearer"


def test_a_revoked_token_is_401(token: str) -> None:
    row = ApiToken.objects.get()
    assert ApiClient(token).get("/workspaces").status_code == 200

    revoke_token(row.user, row.pk)

    assert ApiClient(token).get("/workspaces").status_code == 401


def test_the_token_of_a_deactivated_account_is_401(token: str) -> None:
    account = ApiToken.objects.get().user
    account.is_active = False
    account.save()

    assert ApiClient(token).get("/workspaces").status_code == 401


def test_the_scheme_is_case_insensitive(token: str) -> None:
    response = Client().get("/api/v1/workspaces", headers={"Authorization": f"bearer {token}"})

    assert response.status_code == 200


def test_a_logged_in_session_is_not_a_token(token: str, signed_in: Client) -> None:
    response = signed_in.get("/api/v1/workspaces")

    assert response.status_code == 401


def test_a_method_an_endpoint_does_not_take_is_405_json(token: str) -> None:
    response = ApiClient(token).client.delete(
        "/api/v1/workspaces", headers={"Authorization": f"Bearer {token}"}
    )

    assert response.status_code == 405
    assert response.json() == {"message": "This URL does not take DELETE."}
    assert response["Allow"] == "GET"


@pytest.mark.parametrize("path", ["", "nothing", "workspaces/team/nothing/deeper"])
def test_a_url_that_is_no_endpoint_is_404_json(token: str, path: str) -> None:
    response = ApiClient(token).client.get(f"/api/v1/{path}")

    assert response.status_code == 404
    assert "message" in response.json()


def test_the_last_use_of_a_token_is_recorded(token: str) -> None:
    assert ApiToken.objects.get().last_used_at is None

    ApiClient(token).get("/workspaces")

    assert ApiToken.objects.get().last_used_at is not None


def test_api_urls_need_no_login_page_redirect() -> None:
    # The API answers for itself (401 JSON); the pages' login redirect would hide that.
    api = next(p for p in get_resolver().url_patterns if str(p.pattern) == "api/v1/")
    assert all(getattr(p.callback, "login_required", True) is False for p in api.url_patterns)

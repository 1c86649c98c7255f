"""A body of the wrong kind gets a JSON refusal, never a 500 (docs/api.md, "Errors"): a form
upload sent to an endpoint that takes JSON is 415, and a multipart form the server cannot read
(no boundary, a broken one) is 400, whatever the endpoint."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.api.api_calls import API, Team, make_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def team() -> Team:
    return make_team()


def sent(team: Team, method: str, path: str, body: bytes, content_type: str) -> Any:
    """The answer to `body` sent as `content_type` by the workspace's owner. The content type
    goes in the environment itself: the test client leaves it out of a request without a
    body, which is the request that broke."""
    client = Client(raise_request_exception=False)
    return client.generic(
        method,
        API + path,
        body,
        headers={"Authorization": f"Bearer {team.tokens['owner']}"},
        CONTENT_TYPE=content_type,
    )


FORM = b'--x\r\nContent-Disposition: form-data; name="version"\r\n\r\n1\r\n--x--\r\n'


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("content_type", ["multipart/form-data", "multipart/form-data; boundary="])
def test_a_form_upload_without_a_boundary_is_bad_input(
    team: Team, settings: Any, debug: bool, content_type: str
) -> None:
    # With DEBUG on, ninja answered the parser's error as a 500 with its traceback; with it
    # off, Django answered an HTML page.
    settings.DEBUG = debug

    response = sent(team, "POST", "/imports", b"", content_type)

    assert response.status_code == 400
    assert "multipart" in response.json()["message"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("PUT", "/workspaces/team-evals/case?suite=evals/review.yaml&id=first"),
        ("POST", "/workspaces/team-evals/jobs/export"),
    ],
)
def test_a_form_upload_to_an_endpoint_that_takes_json_is_an_unsupported_type(
    team: Team, method: str, path: str
) -> None:
    response = sent(team, method, path, FORM, "multipart/form-data; boundary=x")

    assert response.status_code == 415
    assert response.json() == {
        "message": "This endpoint takes a JSON body (Content-Type: application/json), "
        "not multipart/form-data."
    }

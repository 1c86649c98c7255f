"""Calling the JSON API from tests: a token in the header, JSON in and out."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.http import HttpResponse
from django.test import Client

from evals_app.models import Case, ReviewStatus, Suite, Workspace
from tests.factories import api_token, case, member, suite, workspace

API = "/api/v1"
ROLES = ["owner", "editor", "reviewer", "viewer"]


class ApiClient:
    """A test client that sends `Authorization: Bearer TOKEN` with every request."""

    def __init__(self, token: str | None) -> None:
        self.client = Client()
        self.headers = {"Authorization": f"Bearer {token}"} if token is not None else {}

    def get(self, path: str, **query: str) -> HttpResponse:
        return self.client.get(_url(path, query), headers=self.headers)

    def put(self, path: str, body: Any, **query: str) -> HttpResponse:
        return self._send("put", path, body, query)

    def post(self, path: str, body: Any, **query: str) -> HttpResponse:
        return self._send("post", path, body, query)

    def _send(self, method: str, path: str, body: Any, query: dict[str, str]) -> HttpResponse:
        text = body if isinstance(body, (str, bytes)) else json.dumps(body)
        send = getattr(self.client, method)
        return send(
            _url(path, query), data=text, content_type="application/json", headers=self.headers
        )


def _url(path: str, query: dict[str, str]) -> str:
    return API + path + (f"?{urlencode(query)}" if query else "")


@dataclass
class Team:
    """A workspace with one suite of two cases, a member per role and each one's token."""

    workspace: Workspace
    suite: Suite
    first: Case
    second: Case
    tokens: dict[str, str]

    def as_role(self, role: str) -> ApiClient:
        """The API as the member with `role` (owner, editor, reviewer or viewer)."""
        return ApiClient(self.tokens[role])

    def case_query(self, case: Case | None = None) -> dict[str, str]:
        """The query that names `case` (the first case by default)."""
        case = case or self.first
        return {"suite": self.suite.path, "id": case.case_id}


def make_team() -> Team:
    """The Team of the API tests."""
    space = workspace("Team evals")
    evals = suite(space, "evals/review.yaml")
    first = case(evals, "first", ("system", "Be brief."), ("user", "What is 2+2?"))
    second = case(evals, "second", status=ReviewStatus.IN_REVIEW)
    tokens = {role: api_token(member(space, role)) for role in ROLES}
    return Team(space, evals, first, second, tokens)

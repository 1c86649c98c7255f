"""Who is calling: `Authorization: Bearer TOKEN`, a token from the API tokens page."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django.views.decorators.debug import sensitive_variables
from ninja.security import HttpBearer

from ..services.api_tokens import user_for_token


class BearerToken(HttpBearer):
    """The user of the request's API token; ninja answers 401 when there is none."""

    @sensitive_variables("token")
    def __call__(self, request: HttpRequest) -> User | None:
        # ninja's own HttpBearer logs a malformed header, token and all, while DEBUG is on;
        # a token must never reach a log.
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None
        return self.authenticate(request, token.strip())

    @sensitive_variables("token")
    def authenticate(self, request: HttpRequest, token: str) -> User | None:
        return user_for_token(token)


def api_user(request: HttpRequest) -> User:
    """The user the request's token belongs to (every endpoint requires a token)."""
    user = getattr(request, "auth", None)
    if not isinstance(user, User):
        raise TypeError("an API endpoint ran without an authenticated token")
    return user

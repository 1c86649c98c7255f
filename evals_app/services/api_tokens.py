"""API tokens: created for a user, shown once, kept only as a hash, revoked by deleting them.

A token is `agentv_` and 32 random bytes (URL-safe base64). The database keeps its SHA-256
and its first characters, so a leaked database gives no usable token (docs/api.md).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.views.decorators.debug import sensitive_variables

from ..models import ApiToken

TOKEN_MARKER = "agentv_"
# What the tokens page shows of a token: the marker and 8 random characters.
PREFIX_LENGTH = len(TOKEN_MARKER) + 8
MAX_NAME_LENGTH = ApiToken._meta.get_field("name").max_length or 100
# `last_used_at` is written at most this often per token, so reading through the API does not
# turn every request into a database write.
LAST_USED_PRECISION = timedelta(minutes=1)


class TokenNameError(ValueError):
    """A token name that cannot be stored, with the reason in words."""


@sensitive_variables("token")
def create_token(user: User, name: str) -> tuple[ApiToken, str]:
    """A new token of `user` named `name`: the stored row and the token, which is never
    stored and cannot be shown again. Raises TokenNameError for an empty or too long name."""
    name = name.strip()
    if not name:
        raise TokenNameError("Give the token a name, e.g. the script or CI job that will use it.")
    if len(name) > MAX_NAME_LENGTH:
        raise TokenNameError(f"A token name has at most {MAX_NAME_LENGTH} characters.")
    token = TOKEN_MARKER + secrets.token_urlsafe(32)
    row = ApiToken.objects.create(
        user=user, name=name, prefix=token[:PREFIX_LENGTH], token_hash=token_hash(token)
    )
    return row, token


@sensitive_variables("token")
def token_hash(token: str) -> str:
    """The SHA-256 of `token`, as stored. A token has 256 random bits, so a plain hash is
    enough: there is nothing to guess that a slow password hash would protect."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@sensitive_variables("token")
def user_for_token(token: str) -> User | None:
    """The active user whose token `token` is, or None (unknown, revoked or inactive)."""
    row = (
        ApiToken.objects.select_related("user")
        .filter(token_hash=token_hash(token), user__is_active=True)
        .first()
    )
    if row is None:
        return None
    now = timezone.now()
    if row.last_used_at is None or now - row.last_used_at >= LAST_USED_PRECISION:
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=now)
    return row.user


def revoke_token(user: User, token_pk: int) -> ApiToken | None:
    """Delete `user`'s token `token_pk`; it stops working at once. None if they have no such
    token (another user's tokens included)."""
    with transaction.atomic():
        row = ApiToken.objects.filter(user=user, pk=token_pk).first()
        if row is not None:
            row.delete()
        return row

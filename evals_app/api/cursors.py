"""Cursors of the API's paged lists (docs/api.md): opaque text that says where a page ended.

A cursor holds the sort key of the last item sent, so the next page starts after it whatever
was added or removed meanwhile (keyset paging): nothing is sent twice, and an item added
before the cursor is not shifted into the next page.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any


class BadCursor(ValueError):
    """Text that is not a cursor this API gave."""

    def __init__(self) -> None:
        super().__init__("cursor: not a cursor from a previous page of this list.")


def encode_cursor(key: tuple[Any, ...]) -> str:
    """The cursor of the sort key `key` (JSON values), as URL-safe text."""
    text = json.dumps(list(key), ensure_ascii=False, separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode_cursor(cursor: str, types: tuple[type, ...]) -> tuple[Any, ...]:
    """The sort key in `cursor`, each part of the type in `types`; raises BadCursor."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        key = json.loads(text)
    except (binascii.Error, ValueError):
        raise BadCursor() from None
    if not (
        isinstance(key, list)
        and len(key) == len(types)
        and all(type(part) is kind for part, kind in zip(key, types, strict=True))
    ):
        raise BadCursor()
    return tuple(key)

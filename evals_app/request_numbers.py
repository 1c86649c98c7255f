"""Whole numbers from URLs, query strings and forms, read so that no value can fail a query.

`int()` refuses "²" (which `str.isdigit()` accepts) and more than 4,300 digits, and yields
numbers a database column cannot hold (SQLite raises OverflowError above 2**63 - 1): each of
those was a 500. These read ASCII digits only, within
what a 64-bit column holds, and say "no number" for anything else.
"""

from __future__ import annotations

MAX_DATABASE_INTEGER = 2**63 - 1
# Eighteen digits are always below 2**63 - 1; no id or count of the app comes near them.
MAX_DIGITS = 18


def parse_number(raw: str | None) -> int | None:
    """The non-negative number written in ASCII digits in `raw` (at most 18 of them), or None."""
    if raw is None or not 0 < len(raw) <= MAX_DIGITS or not (raw.isascii() and raw.isdigit()):
        return None
    return int(raw)


class DatabaseId:
    """The `<id:...>` path converter: a row's primary key or number. A longer number matches no
    URL (404) rather than overflowing the database query."""

    regex = f"[0-9]{{1,{MAX_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)

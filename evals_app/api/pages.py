"""Every list of the API a page at a time (docs/api.md, "Lists, a page at a time"): `limit`
and `cursor` in, `items`, `total` and `next` out, paged on a unique sort key (keyset)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.db.models import Model, Q, QuerySet
from ninja import Field, Schema

from .cursors import decode_cursor, encode_cursor

DEFAULT_PAGE_SIZE = 100
MAX_PAGE_SIZE = 1000

Item = TypeVar("Item")
Row = TypeVar("Row", bound=Model)


class PageQuery(Schema):
    """Which page: how many items, and where the previous page ended."""

    limit: int = Field(
        DEFAULT_PAGE_SIZE,
        ge=1,
        le=MAX_PAGE_SIZE,
        description=f"Items per page, at most {MAX_PAGE_SIZE}.",
    )
    cursor: str | None = Field(
        None, description="Where to continue: the `next` of the previous page; the first if none."
    )


class Page(Schema, Generic[Item]):
    """One page; `next` is the cursor of the following page (null on the last) and `total`
    the number of items the list holds (with its filters), on every page."""

    items: list[Item]
    total: int
    next: str | None


def page_of(
    rows: QuerySet[Row],
    key: Sequence[str],
    key_of: Callable[[Row], tuple[Any, ...]],
    key_types: tuple[type, ...],
    page: PageQuery,
    *,
    descending: bool = False,
) -> tuple[list[Row], int, str | None]:
    """The rows of page `page` of `rows`, ordered by the fields `key` (unique together; all
    ascending, or all descending), the number of `rows`, and the next page's cursor.

    `key_of` reads a row's key as JSON values of `key_types` (a cursor holds them); raises
    BadCursor for a cursor this list did not give.
    """
    total = rows.count()
    if page.cursor is not None:
        rows = rows.filter(_after(key, decode_cursor(page.cursor, key_types), descending))
    order = [f"-{field}" if descending else field for field in key]
    found = list(rows.order_by(*order)[: page.limit + 1])
    more = len(found) > page.limit
    found = found[: page.limit]
    return found, total, encode_cursor(key_of(found[-1])) if more else None


def _after(key: Sequence[str], values: tuple[Any, ...], descending: bool) -> Q:
    """The rows whose key comes after `values` in the order: (a, b) > (x, y) is a > x, or
    a = x and b > y."""
    beyond = "lt" if descending else "gt"
    after = Q()
    for index, field in enumerate(key):
        equal = dict(zip(key[:index], values, strict=False))
        after |= Q(**equal, **{f"{field}__{beyond}": values[index]})
    return after

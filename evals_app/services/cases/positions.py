"""Renumbering ordered rows (cases, turns, blocks) without breaking their unique positions.

Rows carry an explicit `position` with a unique constraint per parent (STYLE.md, "Ordered
children"). PostgreSQL checks that constraint row by row inside one UPDATE, and SQLite updates
in an order we cannot choose, so shifting `position = position + 1` in place can collide with a
neighbour mid-statement. Instead the affected rows first jump far above every position in use,
then come back to their new places: two UPDATE statements, never a collision.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Case, F, QuerySet, Value, When

# Above any real position, yet far enough below 2**31 that `position + FAR` fits PostgreSQL's
# `integer` (a PositiveIntegerField also forbids negative values, so parking below 0 is no option).
FAR = 1_000_000_000


def shift_positions(
    siblings: QuerySet[Any],
    *,
    start: int,
    by: int,
    end: int | None = None,
    placing: tuple[int, int] | None = None,
) -> None:
    """Add `by` to the position of the rows of `siblings` in `start..end` (inclusive; to the last
    row when `end` is None). `placing=(pk, position)` puts that one row of the range at
    `position` instead, which is how a row moves past its neighbours.

    `siblings` are the rows of one parent; call this inside a transaction that has locked the
    parent row. The caller makes sure the new positions are free.
    """
    rows = siblings.filter(position__gte=start)
    if end is not None:
        rows = rows.filter(position__lte=end)
    if not rows.update(position=F("position") + FAR):
        return
    back: Any = F("position") - FAR + by
    if placing is not None:
        pk, position = placing
        back = Case(When(pk=pk, then=Value(position)), default=back)
    siblings.filter(position__gte=FAR).update(position=back)


def close_gaps(siblings: QuerySet[Any], removed: Iterable[int]) -> None:
    """Renumber `siblings` after the rows at the `removed` positions left them (deleted, or moved
    to another parent), so that their positions run without gaps again, order kept.

    Each row moves down by the number of removed positions below it: two UPDATE statements, as
    in `shift_positions`, whatever the number of rows. Call this inside a transaction that has
    locked the parent row, after the removed rows are gone.
    """
    gone = sorted(set(removed))
    if not gone:
        return
    if not siblings.filter(position__gt=gone[0]).update(position=F("position") + FAR):
        return
    # The first `When` that matches wins: test the highest removed position first.
    back = Case(
        *(
            When(position__gt=FAR + position, then=F("position") - FAR - (below + 1))
            for below, position in reversed(list(enumerate(gone)))
        ),
        default=F("position") - FAR,
    )
    siblings.filter(position__gte=FAR).update(position=back)

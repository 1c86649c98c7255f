"""Where a case stands in its suite: a `position` that only orders, with gaps between cases.

Rows carry an explicit `position` with a unique constraint per parent (STYLE.md, "Ordered
children"), but positions need not be 0, 1, 2, …: new rows are GAP apart, so inserting a case
between two others takes a position between theirs, deleting one leaves a gap, and swapping two
neighbours exchanges their positions. Each touches one or a few rows, whatever the size of the
suite (docs/performance.md, "Positions"). Only when two neighbours stand next to each other is
there no room between them; then the rows after the first are spread over a wider range, as few
of them as leave room (`_make_room`). What a person sees is a case's place in the order
(`place_of`), never its position.

PostgreSQL checks the unique constraint row by row inside one UPDATE, and SQLite updates in an
order we cannot choose: rows being renumbered first jump far above every position in use, then
come back to their new places, so no two rows ever collide.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from django.db.models import Func, IntegerField, QuerySet, Subquery

# Above any real position, yet far enough below 2**31 that `position + FAR` fits PostgreSQL's
# `integer` (a PositiveIntegerField also forbids negative values, so parking below 0 is no option).
FAR = 1_000_000_000
# The room between two cases as they are imported or appended: ten inserts at one place before
# any row needs to move.
GAP = 1024
# The rows `_make_room` spreads at first, quadrupled until their range has room for them.
FIRST_WINDOW = 64
BATCH = 500


def spread_positions(count: int) -> list[int]:
    """The positions of `count` rows written in order into an empty suite, GAP apart (less
    for a suite so large that GAP would reach FAR)."""
    step = max(1, min(GAP, FAR // (count + 1)))
    return list(range(0, count * step, step))


def end_positions(siblings: QuerySet[Any], count: int = 1) -> list[int]:
    """Positions for `count` rows appended to `siblings` (the rows of one parent, locked by the
    caller), in order. Respaces the whole list in the rare case it would reach FAR."""
    last = siblings.order_by("-position").values_list("position", flat=True).first()
    start = 0 if last is None else last + GAP
    if start + count * GAP < FAR:
        return list(range(start, start + count * GAP, GAP))
    rows = list(siblings.order_by("position").values_list("pk", flat=True))
    spread = spread_positions(len(rows) + count)
    _renumber(siblings, list(zip(rows, spread, strict=False)))
    return spread[len(rows) :]


def position_after(siblings: QuerySet[Any], position: int) -> int:
    """A free position right after the row at `position` (before the next row), making room
    first when the next row stands right after it."""
    following = _following(siblings, position)
    if following is None:
        return end_positions(siblings)[0]
    if following - position < 2:
        _make_room(siblings, position)
        following = _following(siblings, position)
        assert following is None or following - position >= 2
        if following is None:
            return end_positions(siblings)[0]
    return position + (following - position) // 2


def swap_positions(siblings: QuerySet[Any], first: Any, second: Any) -> None:
    """Exchange the positions of the rows `first` and `second` (model instances, whose
    `position` is updated too): three one-row UPDATEs."""
    siblings.filter(pk=first.pk).update(position=FAR)
    siblings.filter(pk=second.pk).update(position=first.position)
    siblings.filter(pk=first.pk).update(position=second.position)
    first.position, second.position = second.position, first.position


def place_of(siblings: QuerySet[Any], position: int) -> int:
    """The place (1, 2, 3, …) of the row at `position` in the order, as people count."""
    return siblings.filter(position__lt=position).count() + 1


def places_of(siblings: QuerySet[Any], positions: Sequence[int]) -> dict[int, int]:
    """The places of the rows at `positions`, in one query: the rows before the first are
    counted, then those from each to the next, each count a range of the (parent, position)
    index. Reading every position instead took half a second in a suite of 100,000 cases."""
    ordered = sorted(set(positions))
    if not ordered:
        return {}
    counts = {
        f"below_{index}": _count(
            siblings.filter(position__lt=high, position__gte=ordered[index - 1])
            if index
            else siblings.filter(position__lt=high)
        )
        for index, high in enumerate(ordered)
    }
    # Any one row carries the counts (none is read; without rows, every place is the first).
    row = siblings.order_by("position").annotate(**counts).values_list(*counts)[:1]
    below, *between = next(iter(row), (0,) * len(ordered))
    return dict(zip(ordered, itertools.accumulate([below + 1, *between]), strict=True))


def _count(rows: QuerySet[Any]) -> Subquery:
    """How many `rows` there are, as a scalar subquery (COUNT without GROUP BY).

    COUNT(*), not COUNT(id): PostgreSQL counts a range of the (parent, position) index from
    the index alone only when no column outside it is read (a suite of 100,000 cases: 11 ms
    against 64 ms reading the table)."""
    every_row = Func(template="COUNT(*)", output_field=IntegerField())
    counted = rows.order_by().annotate(count=every_row).values("count")
    return Subquery(counted, output_field=IntegerField())


def _following(siblings: QuerySet[Any], position: int) -> int | None:
    later = siblings.filter(position__gt=position).order_by("position")
    following: int | None = later.values_list("position", flat=True).first()
    return following


def _make_room(siblings: QuerySet[Any], position: int) -> None:
    """Spread the rows after `position` so that a gap of at least 2 opens right after it: the
    fewest rows (64, 256, …) whose range, up to the row after them, has room to put them at
    least 2 apart; or every row to the end, which has all the room up to FAR."""
    size = FIRST_WINDOW
    later = siblings.filter(position__gt=position).order_by("position")
    while True:
        window = list(later.values_list("pk", "position")[: size + 1])
        if len(window) <= size:
            # To the end: GAP apart again, or closer if that would reach FAR.
            step = max(2, min(GAP, (FAR - 1 - position) // (len(window) + 1)))
            rows = window
            break
        rows, limit = window[:size], window[size][1]
        step = (limit - position) // (len(rows) + 1)
        if step >= 2:
            break
        size *= 4
    _renumber(siblings, [(pk, position + step * (index + 1)) for index, (pk, _) in enumerate(rows)])


def _renumber(siblings: QuerySet[Any], placed: list[tuple[Any, int]]) -> None:
    """Give each row `pk` its new position, through positions above FAR so none collide."""
    model = siblings.model
    for offset in (FAR, 0):
        rows = [
            model(pk=pk, position=offset + index if offset else new)
            for index, (pk, new) in enumerate(placed)
        ]
        model.objects.bulk_update(rows, ["position"], batch_size=BATCH)

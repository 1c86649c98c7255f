"""Reading stored cases in bulk: each case's document, chunk by chunk, memory bounded.

Export and the refresh of case summaries read thousands of cases; model instances cost more
there than the formatting itself, so this reads plain rows (one query per chunk).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from ..models import Case

CHUNK_SIZE = 500  # cases per chunk


@dataclass(frozen=True, slots=True)
class StoredCase:
    """A stored case as export writes it: its primary key and its document."""

    pk: int
    document: dict[Any, Any]


def stored_cases(
    cases: QuerySet[Case], *, order: str = "position", chunk_size: int = CHUNK_SIZE
) -> Iterator[StoredCase]:
    """The cases of `cases`, ordered by `order` (a field unique among them), chunk by chunk.

    `position` orders the cases of one suite; use `pk` for cases of several suites.
    """
    ordered = cases.order_by(order)
    last: Any = None
    while True:
        page = ordered if last is None else ordered.filter(**{f"{order}__gt": last})
        rows = list(page.values_list(order, "pk", "document")[:chunk_size])
        if not rows:
            return
        for _, pk, document in rows:
            yield StoredCase(pk, document)
        if len(rows) < chunk_size:
            return
        last = rows[-1][0]

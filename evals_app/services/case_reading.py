"""Reading stored cases in bulk: each case's document, chunk by chunk, memory bounded.

Export and the refresh of case summaries read thousands of cases; model instances cost more
there than the formatting itself, so this reads plain rows (one query per chunk).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet

from ..models import Case, Suite

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


def suites_with_cases(
    suites: QuerySet[Suite], *, chunk_size: int = CHUNK_SIZE, **case_filter: Any
) -> Iterator[tuple[Suite, Iterator[StoredCase]]]:
    """Each suite of `suites`, in their order, with its cases (those matching `case_filter`,
    e.g. `status=...`) by position.

    A repository holds thousands of small suites: the cases of consecutive suites are read
    together, up to `chunk_size` at a time (one query), and a larger suite's in chunks of its
    own. Each suite's cases must be read before the next suite is asked for.
    """
    counted = suites.annotate(
        stored_case_count=Count(
            "cases", filter=Q(**{f"cases__{name}": value for name, value in case_filter.items()})
        )
    )
    pending: list[Suite] = []
    pending_cases = 0
    for suite in counted:
        count: int = suite.stored_case_count
        if pending and (count > chunk_size or pending_cases + count > chunk_size):
            yield from _read_together(pending, case_filter)
            pending, pending_cases = [], 0
        if count > chunk_size:
            yield suite, stored_cases(suite.cases.filter(**case_filter), chunk_size=chunk_size)
            continue
        pending.append(suite)
        pending_cases += count
    if pending:
        yield from _read_together(pending, case_filter)


def _read_together(
    suites: list[Suite], case_filter: dict[str, Any]
) -> Iterator[tuple[Suite, Iterator[StoredCase]]]:
    """The cases of a few small suites, read in one query and handed out suite by suite."""
    by_suite: dict[int, list[StoredCase]] = {suite.pk: [] for suite in suites}
    rows = (
        Case.objects.filter(suite__in=list(by_suite), **case_filter)
        .order_by("suite_id", "position")
        .values_list("suite_id", "pk", "document")
    )
    for suite_pk, pk, document in rows:
        by_suite[suite_pk].append(StoredCase(pk, document))
    for suite in suites:
        yield suite, iter(by_suite.pop(suite.pk))

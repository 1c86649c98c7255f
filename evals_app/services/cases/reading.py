"""Reading stored cases in bulk: each case's document, chunk by chunk, memory bounded.

Export and the upgrade read thousands of cases; model instances cost more there than the
formatting itself, so this reads plain rows (one query per chunk).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, QuerySet, TextField
from django.db.models.functions import Cast

from ...models import Case, Suite

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
    for rows in _pages(cases, order, ("pk", "document"), chunk_size):
        for _, pk, document in rows:
            yield StoredCase(pk, document)


def _pages(
    cases: QuerySet[Case], order: str, columns: tuple[Any, ...], chunk_size: int
) -> Iterator[list[tuple[Any, ...]]]:
    """Rows of (`order`, *`columns`) of `cases`, ordered by `order` (unique among them),
    `chunk_size` at a time: one query each, after the last row of the one before."""
    ordered = cases.order_by(order)
    last: Any = None
    while True:
        page = ordered if last is None else ordered.filter(**{f"{order}__gt": last})
        rows = list(page.values_list(order, *columns)[:chunk_size])
        if rows:
            yield rows
        if len(rows) < chunk_size:
            return
        last = rows[-1][0]


def document_batches(
    suites: QuerySet[Suite], *, batch_size: int = CHUNK_SIZE, **case_filter: Any
) -> tuple[Sequence[Suite], Iterator[list[tuple[int, list[str], bool]]]]:
    """The suites of `suites`, in their order, without their texts (`Suite.TEXTS`: whoever
    needs one reads it when it needs it), and their cases (those matching `case_filter`,
    e.g. `status=...`) by position, in batches of up to `batch_size`: in each batch, for each
    suite in it, its index, its cases' documents as stored (JSON text, for
    `json_text.decode_json`) and whether they are all of its cases. Every suite is in a
    batch, those without cases too.

    A repository holds thousands of small suites: the cases of consecutive suites are read
    together (one query a batch), and a larger suite's in batches of its own. Memory holds
    the suites' headers and one batch, however large the workspace.
    """
    counted = list(suites.defer(*Suite.TEXTS))
    # Counted apart: annotating the suites made the database group every suite's columns.
    counts = dict(
        Case.objects.filter(suite__in=suites.values("pk"), **case_filter)
        .values("suite")
        .annotate(count=Count("*"))
        .values_list("suite", "count")
    )
    for suite in counted:
        suite.stored_case_count = counts.get(suite.pk, 0)  # type: ignore[attr-defined]
    return counted, _batches(counted, batch_size, case_filter)


def _batches(
    suites: Sequence[Suite], batch_size: int, case_filter: dict[str, Any]
) -> Iterator[list[tuple[int, list[str], bool]]]:
    pending: list[int] = []
    pending_cases = 0
    for index, suite in enumerate(suites):
        count: int = suite.stored_case_count  # type: ignore[attr-defined]
        if pending and (count > batch_size or pending_cases + count > batch_size):
            yield _read_together(suites, pending, case_filter)
            pending, pending_cases = [], 0
        if count > batch_size:
            cases = suite.cases.filter(**case_filter)
            for rows in _pages(cases, "position", (_STORED_TEXT,), batch_size):
                yield [(index, [text for _, text in rows], False)]
            continue
        pending.append(index)
        pending_cases += count
    if pending:
        yield _read_together(suites, pending, case_filter)


def _read_together(
    suites: Sequence[Suite], indexes: list[int], case_filter: dict[str, Any]
) -> list[tuple[int, list[str], bool]]:
    """The cases of a few small suites, read in one query."""
    by_suite: dict[int, list[str]] = {suites[index].pk: [] for index in indexes}
    rows = (
        Case.objects.filter(suite__in=list(by_suite), **case_filter)
        .order_by("suite_id", "position")
        .values_list("suite_id", _STORED_TEXT)
    )
    for suite_pk, text in rows:
        by_suite[suite_pk].append(text)
    return [(index, by_suite[suites[index].pk], True) for index in indexes]


# A document as the database holds it, not decoded: export decodes it where it formats it.
_STORED_TEXT = Cast("document", output_field=TextField())

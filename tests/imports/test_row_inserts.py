"""Many rows at once (services/imports/row_inserts.py): an import's cases go in many to a
statement, every row whole and in order, and the search index reads each of them."""

from __future__ import annotations

import pytest
from django.db import connection

from evals_app.models import Case
from evals_app.services.cases.search_index import search_filter
from evals_app.services.imports import row_inserts
from evals_app.services.imports.row_inserts import insert_rows
from tests import factories

pytestmark = pytest.mark.django_db

COLUMNS = ("suite", "position", "case_id", "document", "base_document")


def rows_for(suite_pk: int, count: int) -> list[tuple[object, ...]]:
    return [
        (suite_pk, 1_024 * n, f"case-{n:04}", f'{{"id": "case-{n:04}", "word": "w{n:04}x"}}', "{}")
        for n in range(count)
    ]


@pytest.mark.parametrize("count", [1, 7, 8, 9, 250])
def test_rows_beyond_one_statement_are_all_stored_in_order(
    count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(row_inserts, "ROWS_PER_STATEMENT", 8)
    suite = factories.suite(factories.workspace())
    insert_rows(Case, COLUMNS, rows_for(suite.pk, count))
    stored = list(Case.objects.filter(suite=suite).order_by("position").values_list("case_id"))
    assert stored == [(f"case-{n:04}",) for n in range(count)]


def test_one_statement_carries_no_more_parameters_than_the_database_takes() -> None:
    limit = connection.features.max_query_params
    suite = factories.suite(factories.workspace())
    rows = rows_for(suite.pk, 3_000)
    insert_rows(Case, COLUMNS, rows)  # SQLite refuses a statement of more than 999 values
    assert Case.objects.filter(suite=suite).count() == 3_000
    assert limit is None or row_inserts._rows_per_statement(len(COLUMNS)) * len(COLUMNS) <= limit


def test_the_search_index_reads_every_row_of_a_many_row_statement() -> None:
    suite = factories.suite(factories.workspace())
    insert_rows(Case, COLUMNS, rows_for(suite.pk, 300))
    for n in (0, 149, 299):
        matching = Case.objects.filter(suite=suite).filter(
            search_filter(f"w{n:04}x", connection.vendor)
        )
        assert list(matching.values_list("case_id", flat=True)) == [f"case-{n:04}"]

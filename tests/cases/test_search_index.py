"""The search index (docs/performance.md, "Search"): what the indexed search finds is exactly
what a substring match over every case finds, and the index follows every kind of write."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.db.models import Q
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evals_app.models import Case, Suite
from evals_app.services.cases.search_index import (
    POSTGRESQL_INDEXES,
    SQLITE_INDEX,
    repair_search_index,
    search_filter,
)
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def suite() -> Suite:
    suite = factories.suite(factories.workspace())
    factories.case(suite, "refund-late", ("user", "My refund is LATE."))
    factories.case(suite, "Refund-Twice", ("user", 'I was charged "twice".'))
    factories.case(suite, "login", ("user", "I can't log in.\nHelp!"), outcome="Résumé sent.")
    factories.case(suite, "path-files", ("user", "See C:\\temp\\café.txt"))
    factories.case(suite, "Straße", ("user", "Ärger über die Rechnung"))
    factories.case(suite, "q1", ("user", "100% of 50_000 rows"))
    return suite


def found(suite: Suite, query: str) -> list[str]:
    """What the search finds, through the index where the database has one."""
    cases = Case.objects.filter(suite=suite).filter(search_filter(query, connection.vendor))
    return list(cases.order_by("position").values_list("case_id", flat=True))


def scanned(suite: Suite, query: str) -> list[str]:
    """What a substring match, ignoring case as LIKE does, finds reading every case."""
    as_json = json.dumps(query, ensure_ascii=False)[1:-1]
    matching = Q(case_id__icontains=query) | Q(document__icontains=as_json)
    cases = Case.objects.filter(suite=suite).filter(matching)
    return list(cases.order_by("position").values_list("case_id", flat=True))


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("refund-late", ["refund-late"]),  # a whole id
        ("fund", ["refund-late", "Refund-Twice"]),  # part of ids and words
        ("REFUND", ["refund-late", "Refund-Twice"]),  # ASCII letters in any case
        ("late.", ["refund-late"]),  # a word and its punctuation
        ('"twice"', ["Refund-Twice"]),  # quotes, as the document's JSON escapes them
        ("log in.\nHelp", ["login"]),  # across a line break
        ("C:\\temp", ["path-files"]),  # a backslash
        ("café", ["path-files"]),  # accented letters, as written
        ("See C:\\temp\\café.txt", ["path-files"]),  # longer than the trigrams asked for
        ("Straße", ["Straße"]),
        ("über", ["Straße"]),
        ("100%", ["q1"]),  # LIKE's wildcards are plain characters
        ("50_0", ["q1"]),
        ("q1", ["q1"]),  # shorter than a trigram
        ("é", ["login", "path-files"]),
        ("no such words", []),
    ],
)
def test_the_search_finds_ids_and_words(suite: Suite, query: str, expected: list[str]) -> None:
    assert found(suite, query) == expected
    assert scanned(suite, query) == expected


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_indexed_search_finds_what_reading_every_case_finds(
    suite: Suite, data: st.DataObject
) -> None:
    texts = [case.case_id for case in suite.cases.all()]
    texts += [json.dumps(case.document, ensure_ascii=False) for case in suite.cases.all()]
    text = data.draw(st.sampled_from(texts))
    start = data.draw(st.integers(0, len(text) - 1))
    length = data.draw(st.integers(1, 12))
    query = data.draw(st.sampled_from([str.lower, str.upper, str]))(text[start : start + length])

    assert found(suite, query) == scanned(suite, query)


def test_a_case_added_changed_renamed_or_deleted_is_found_as_it_now_is(suite: Suite) -> None:
    added = factories.case(suite, "brand-new", ("user", "Parcel lost in transit."))
    assert found(suite, "transit") == ["brand-new"]

    added.document = {**added.document, "outcome": "Offers a replacement parcel."}
    added.save()
    assert found(suite, "replacement") == ["brand-new"]

    Case.objects.filter(pk=added.pk).update(case_id="renamed-in-bulk")
    assert found(suite, "renamed-in") == ["renamed-in-bulk"]

    added.delete()
    assert found(suite, "replacement") == []


def test_cases_written_in_bulk_are_found(suite: Suite) -> None:
    Case.objects.bulk_create(
        Case(suite=suite, position=100 + n, case_id=f"bulk-{n}", document={"note": f"batch {n}"})
        for n in range(3)
    )

    assert found(suite, "batch 2") == ["bulk-2"]


def test_the_search_asks_the_database_s_index() -> None:
    """The index that backs the search exists in the database in use."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(
                "SELECT count(*) FROM sqlite_master WHERE name LIKE %s", [f"{SQLITE_INDEX}%"]
            )
            # The table, its shadow tables and the three triggers.
            assert cursor.fetchone()[0] >= 4
            sql = str(Case.objects.filter(search_filter("refund", "sqlite")).query)
            assert f"{SQLITE_INDEX} MATCH" in sql
        else:
            cursor.execute("SET LOCAL enable_seqscan = off")
            sql, parameters = (
                Case.objects.filter(search_filter("refund", "postgresql"))
                .order_by()
                .values("pk")
                .query.sql_with_params()
            )
            cursor.execute(f"EXPLAIN {sql}", parameters)
            plan = "\n".join(line for (line,) in cursor.fetchall())
            assert "evals_app_case_id_trgm" in plan, plan
            assert "evals_app_case_document_trgm" in plan


def test_an_index_a_migration_dropped_is_put_back_and_catches_up(suite: Suite) -> None:
    # A migration that rebuilds the case table drops its triggers on SQLite.
    dropped = (
        [f"DROP TRIGGER {SQLITE_INDEX}_{kind}" for kind in ("insert", "delete", "update")]
        if connection.vendor == "sqlite"
        else [f"DROP INDEX {name}" for name in POSTGRESQL_INDEXES]
    )
    with connection.cursor() as cursor:
        for statement in dropped:
            cursor.execute(statement)
    factories.case(suite, "while-unindexed", ("user", "Written with no trigger."))
    if connection.vendor == "postgresql":
        # The test's transaction defers foreign key checks; a migration's CREATE INDEX runs
        # with none pending.
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")

    repair_search_index(connection)

    assert found(suite, "no trigger") == ["while-unindexed"]
    factories.case(suite, "after-repair", ("user", "Indexed again."))
    assert found(suite, "indexed again") == ["after-repair"]
    test_the_search_asks_the_database_s_index()

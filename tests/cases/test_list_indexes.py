"""The suite page's sort by last change and its warnings filter read an index, on SQLite and
PostgreSQL alike (docs/performance.md), rather than every case of the suite; what is read of
every suite is not read through its file texts."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.db.models import QuerySet
from django.test.utils import CaptureQueriesContext

from evals_app.models import Case, Suite
from evals_app.services.cases.positions import places_of
from evals_app.services.cases.search_index import update_planner_statistics
from evals_app.services.cases.work_list import CaseListing, listed_cases, ordered_cases
from evals_app.services.repository.conflicts import open_conflicts
from tests import factories

pytestmark = pytest.mark.django_db


def plan(listing: CaseListing) -> str:
    suite = factories.suite(factories.workspace())
    for number in range(3):
        factories.case(suite, f"case-{number}", format_warnings=["x"] * number, role_markers=True)
    cases = ordered_cases(listed_cases(suite, listing), listing.sort).values("pk")[:50]
    return explained(cases)


def explained(cases: QuerySet[Any]) -> str:
    sql, parameters = cases.query.sql_with_params()
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("ANALYZE")
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", parameters)
            return "\n".join(str(row[-1]) for row in cursor.fetchall())
        # A table of three rows is read whole whatever its indexes: ask for the plan the
        # planner takes on a large one.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute(f"EXPLAIN {sql}", parameters)
        return "\n".join(row[0] for row in cursor.fetchall())


@pytest.mark.parametrize(
    ("listing", "index"),
    [
        (CaseListing(sort="-changed"), "case_changed_newest"),
        (CaseListing(sort="changed"), "case_changed_oldest"),
        (CaseListing(warnings="with"), "case_with_warnings"),
    ],
)
def test_the_list_reads_its_index(listing: CaseListing, index: str) -> None:
    read = plan(listing)

    assert index in read, read
    # The index gives the order too: the matching cases are not read all, then sorted.
    assert ("TEMP B-TREE" if connection.vendor == "sqlite" else "Sort") not in read, read


def test_a_suite_s_open_conflicts_are_read_from_their_index() -> None:
    suite = factories.suite(factories.workspace())
    factories.case(suite, "agreed")
    factories.case(suite, "disputed", theirs_document={"id": "disputed"})
    cases = Case.objects.filter(suite=suite, theirs_document__isnull=False).order_by("position")

    assert "case_in_conflict" in explained(cases.values("pk"))
    assert [c.case_id for c in open_conflicts(suite.workspace, suite)] == ["disputed"]


def test_the_warnings_filter_keeps_the_cases_with_warnings() -> None:
    suite = factories.suite(factories.workspace())
    factories.case(suite, "clean", format_warnings=[], role_markers=True)
    factories.case(suite, "warned", format_warnings=["Long turn."], role_markers=False)
    factories.case(suite, "unformatted", format_warnings=["x"], role_markers=None)

    kept = listed_cases(suite, CaseListing(warnings="with"))

    assert list(kept.values_list("case_id", flat=True)) == ["warned"]
    assert Case.objects.count() == 3


def test_places_are_counted_without_reading_a_column_outside_the_position_index() -> None:
    suite = factories.suite(factories.workspace())
    for number in range(3):
        factories.case(suite, f"case-{number}")
    siblings = Case.objects.filter(suite=suite)
    positions = list(siblings.order_by("position").values_list("position", flat=True))
    with CaptureQueriesContext(connection) as queries:
        places = places_of(siblings, positions[1:])
    assert list(places.values()) == [2, 3]

    # COUNT(id) made PostgreSQL read the table for every row counted, not the index alone:
    # counting half of a 100,000-case suite's places took 64 ms instead of 11.
    (counting,) = queries.captured_queries
    assert re.findall(r"COUNT\((.*?)\)", counting["sql"]) == ["*", "*"]


@pytest.mark.django_db(transaction=True)
def test_statistics_taken_after_a_bulk_write_leave_the_planner_what_it_reads() -> None:
    suite = factories.suite(factories.workspace())
    for number in range(3):
        factories.case(suite, f"case-{number}")

    update_planner_statistics(connection)

    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":  # how many rows each index holds
            cursor.execute("SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'evals_app_case'")
        else:  # the rows marked visible to all, so that an index alone can count them
            cursor.execute("SELECT relallvisible FROM pg_class WHERE relname = 'evals_app_case'")
        assert cursor.fetchone()[0] > 0


def test_statistics_inside_a_transaction_are_taken_without_vacuum() -> None:
    suite = factories.suite(factories.workspace())
    factories.case(suite, "case-1")
    update_planner_statistics(connection)  # VACUUM would be refused here
    assert Case.objects.count() == 1


def test_the_file_texts_are_the_last_columns_of_the_suite_table() -> None:
    # SQLite reads through a long text to reach any column after it: what a publish, a sync
    # check and the workspace page read of every suite would walk through every file.
    with connection.cursor() as cursor:
        columns = [
            c.name
            for c in connection.introspection.get_table_description(cursor, "evals_app_suite")
        ]

    assert columns[-2:] == list(Suite.TEXTS), columns

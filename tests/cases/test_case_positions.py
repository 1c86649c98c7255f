"""Case positions stay unique and in the expected order through every change of the list, and
each change touches a few rows: positions have gaps (services/cases/positions.py)."""

from __future__ import annotations

import itertools

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evals_app.eval_files.errors import EvalFileError
from evals_app.models import Suite
from evals_app.services.cases.list_changes import (
    create_case,
    delete_case,
    duplicate_case,
    move_case,
)
from evals_app.services.cases.positions import FAR, FIRST_WINDOW, GAP, place_of, places_of
from tests import factories

pytestmark = pytest.mark.django_db
workspace_numbers = itertools.count()


def new_suite(*case_ids: str) -> Suite:
    workspace = factories.workspace(f"Positions {next(workspace_numbers)}")
    suite = factories.suite(workspace)
    for case_id in case_ids:
        factories.case(suite, case_id)
    return suite


def order(suite: Suite) -> list[tuple[int, str]]:
    return list(suite.cases.order_by("position").values_list("position", "case_id"))


def ids(suite: Suite) -> list[str]:
    return [case_id for _, case_id in order(suite)]


def case_updates(queries: CaptureQueriesContext) -> list[str]:
    """The UPDATE statements of case rows among `queries`."""
    return [
        query["sql"]
        for query in queries.captured_queries
        if query["sql"].startswith('UPDATE "evals_app_case"')
    ]


def spread(suite: Suite) -> None:
    """The positions an import gives: GAP apart (0, 1024, 2048, …)."""
    for number, case in enumerate(suite.cases.order_by("-position")):
        case.position = (suite.cases.count() - 1 - number) * GAP
        case.save(update_fields=["position"])


def test_a_duplicate_takes_a_position_between_the_original_and_the_next_moving_no_row() -> None:
    suite = new_suite("a", "b", "c")
    spread(suite)
    before = dict(suite.cases.values_list("case_id", "position"))

    with CaptureQueriesContext(connection) as queries:
        duplicate_case(suite.cases.get(case_id="a"))

    assert ids(suite) == ["a", "a-copy", "b", "c"]
    assert {k: v for k, v in suite.cases.values_list("case_id", "position") if k in before} == (
        before
    )
    assert not case_updates(queries)


def test_deleting_a_case_writes_no_other_row() -> None:
    suite = new_suite("a", "b", "c")

    with CaptureQueriesContext(connection) as queries:
        delete_case(suite.cases.get(case_id="a"))

    assert order(suite) == [(1, "b"), (2, "c")]
    assert not case_updates(queries)


def test_moving_a_case_exchanges_the_positions_of_the_two_neighbours_only() -> None:
    suite = new_suite("a", "b", "c", "d")
    spread(suite)

    move_case(suite.cases.get(case_id="b"), "down")

    assert order(suite) == [(0, "a"), (1024, "c"), (2048, "b"), (3072, "d")]


def test_once_the_room_after_a_case_runs_out_only_the_nearest_cases_are_spread() -> None:
    suite = new_suite(*(f"c{number}" for number in range(300)))
    spread(suite)
    copies = []
    most_moved = 0
    for _ in range(14):  # each copy halves the room after c10: it runs out after ten
        before = dict(suite.cases.values_list("pk", "position"))
        copies.append(duplicate_case(suite.cases.get(case_id="c10")).case_id)
        after = dict(suite.cases.values_list("pk", "position"))
        most_moved = max(most_moved, sum(after[pk] != before[pk] for pk in before))

    assert 0 < most_moved <= FIRST_WINDOW
    originals = [f"c{number}" for number in range(300)]
    assert ids(suite) == [*originals[:11], *reversed(copies), *originals[11:]]


def test_room_is_made_up_to_the_end_when_the_cases_after_are_packed_to_the_last() -> None:
    suite = new_suite("a", "b", "c")

    copy = duplicate_case(suite.cases.get(case_id="a"))

    assert ids(suite) == ["a", copy.case_id, "b", "c"]


def test_appending_past_the_highest_position_respaces_the_suite() -> None:
    suite = new_suite("a", "b")
    suite.cases.filter(case_id="b").update(position=FAR - 1)

    created = create_case(suite, "c")

    assert ids(suite) == ["a", "b", "c"]
    assert created.position < FAR
    assert max(suite.cases.values_list("position", flat=True)) < FAR


def test_the_suite_page_numbers_cases_by_their_place_not_their_position() -> None:
    suite = new_suite("a", "b", "c")
    spread(suite)

    assert places_of(suite.cases.all(), [0, 1024, 2048]) == {0: 1, 1024: 2, 2048: 3}
    assert place_of(suite.cases.all(), 2048) == 3


def test_places_of_scattered_positions_are_counted_in_one_query_whatever_their_order() -> None:
    suite = new_suite("a", "b", "c", "d", "e", "f")
    spread(suite)
    duplicate_case(suite.cases.get(case_id="b"))  # a copy at 1536, between b and c
    suite.cases.filter(case_id="d").delete()  # a gap at 3072
    positions = dict(suite.cases.values_list("case_id", "position"))

    with CaptureQueriesContext(connection) as queries:
        places = places_of(suite.cases.all(), [positions["f"], positions["a"], positions["c"]])

    assert places == {positions["f"]: 6, positions["a"]: 1, positions["c"]: 4}
    assert len(queries) == 1


def test_a_copy_whose_id_would_be_too_long_is_refused() -> None:
    suite = new_suite("x" * 196)

    with pytest.raises(EvalFileError, match="at most 200 characters"):
        duplicate_case(suite.cases.get())

    assert suite.cases.count() == 1


operations = st.lists(
    st.tuples(
        st.sampled_from(["create", "duplicate", "delete", "up", "down"]),
        st.integers(min_value=0, max_value=20),
    ),
    max_size=12,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=operations)
def test_any_sequence_of_changes_keeps_positions_unique_and_in_the_expected_order(
    steps: list[tuple[str, int]],
) -> None:
    suite = new_suite("a", "b", "c")
    expected = ["a", "b", "c"]
    for number, (operation, pick) in enumerate(steps):
        if operation == "create":
            create_case(suite, f"new-{number}")
            expected.append(f"new-{number}")
            continue
        if not expected:
            continue
        index = pick % len(expected)
        case = suite.cases.get(case_id=expected[index])
        if operation == "duplicate":
            copy = duplicate_case(case)
            expected.insert(index + 1, copy.case_id)
        elif operation == "delete":
            delete_case(case)
            del expected[index]
        else:
            target = index - 1 if operation == "up" else index + 1
            moved = move_case(case, "up" if operation == "up" else "down")
            assert moved == (0 <= target < len(expected))
            if moved:
                expected[index], expected[target] = expected[target], expected[index]

    assert ids(suite) == expected

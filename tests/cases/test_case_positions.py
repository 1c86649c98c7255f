"""Case positions stay unique and contiguous (0, 1, 2, …) through every change of the list."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evals_app.eval_files.errors import EvalFileError
from evals_app.models import Case, Suite
from evals_app.services.cases.list_changes import (
    create_case,
    delete_case,
    duplicate_case,
    move_case,
)
from evals_app.services.cases.positions import shift_positions
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


def test_shifting_moves_a_range_past_its_free_neighbour() -> None:
    suite = new_suite("a", "b", "c", "d")
    Case.objects.filter(suite=suite, case_id="a").delete()

    shift_positions(suite.cases.all(), start=1, by=-1)

    assert order(suite) == [(0, "b"), (1, "c"), (2, "d")]


def test_shifting_can_place_one_row_of_the_range_elsewhere() -> None:
    suite = new_suite("a", "b", "c", "d", "e")
    d = suite.cases.get(case_id="d")

    shift_positions(suite.cases.all(), start=1, end=3, by=1, placing=(d.pk, 1))

    assert order(suite) == [(0, "a"), (1, "d"), (2, "b"), (3, "c"), (4, "e")]


def test_shifting_leaves_other_parents_alone() -> None:
    suite, other = new_suite("a", "b"), new_suite("x", "y")

    shift_positions(suite.cases.all(), start=0, by=3)

    assert order(suite) == [(3, "a"), (4, "b")]
    assert order(other) == [(0, "x"), (1, "y")]


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
def test_any_sequence_of_changes_keeps_positions_contiguous_and_in_the_expected_order(
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

    assert order(suite) == list(enumerate(expected))

"""Agreement between reviewers, checked against tables computed by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evals_app.services.review.agreement import agreement


def two_reviewers(table: dict[tuple[str, str], int]) -> dict[int, dict[str, str]]:
    """Items from a contingency table: (a's answer, b's answer) → how many items."""
    items: dict[int, dict[str, str]] = {}
    for (first, second), count in table.items():
        for _ in range(count):
            items[len(items)] = {"a": first, "b": second}
    return items


def counts_table(rows: list[list[int]]) -> dict[int, dict[int, int]]:
    """Items from Fleiss' table: per item, how many raters chose each category."""
    items: dict[int, dict[int, int]] = {}
    for item, row in enumerate(rows):
        answers = [category for category, count in enumerate(row) for _ in range(count)]
        items[item] = dict(enumerate(answers))
    return items


def test_two_reviewers_give_cohens_kappa() -> None:
    # 50 cases: 20 both pass, 5 a pass b fail, 10 a fail b pass, 15 both fail.
    # p_o = 35/50 = 0.7; p_e = 0.5 × 0.6 + 0.5 × 0.4 = 0.5; kappa = 0.2 / 0.5 = 0.4.
    table = {("pass", "pass"): 20, ("pass", "fail"): 5, ("fail", "pass"): 10, ("fail", "fail"): 15}

    result = agreement(two_reviewers(table))

    assert result.method == "Cohen"
    assert result.items == 50
    assert result.percent == pytest.approx(0.7)
    assert result.kappa == pytest.approx(0.4)


def test_fourteen_raters_give_fleiss_kappa() -> None:
    # Fleiss' (1971) worked example: 10 items, 14 raters, 5 categories: P̄ = 0.378,
    # P_e = 0.213, kappa = 0.210.
    rows = [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ]

    result = agreement(counts_table(rows))

    assert result.method == "Fleiss"
    assert result.percent == pytest.approx(0.378, abs=0.001)
    assert result.kappa == pytest.approx(0.210, abs=0.001)


def test_raters_that_differ_by_item_give_fleiss_kappa_over_each_items_pairs() -> None:
    # Item 1: a, b say x, c says y: 1 agreeing pair of 3 → 1/3. Item 2: a, b say x → 1.
    # P̄ = 2/3; answers x 4, y 1: P_e = 0.8² + 0.2² = 0.68; kappa = (2/3 - 0.68) / 0.32.
    ratings = {1: {"a": "x", "b": "x", "c": "y"}, 2: {"a": "x", "b": "x"}}

    result = agreement(ratings)

    assert result.method == "Fleiss"
    assert result.percent == pytest.approx(2 / 3)
    assert result.kappa == pytest.approx((2 / 3 - 0.68) / 0.32)


def test_items_with_one_review_are_left_out() -> None:
    ratings = {1: {"a": "pass", "b": "fail"}, 2: {"a": "pass"}}

    result = agreement(ratings)

    assert result.items == 1
    assert result.percent == 0


def test_no_item_reviewed_twice_gives_no_figures() -> None:
    result = agreement({1: {"a": "pass"}})

    assert (result.items, result.percent, result.kappa, result.method) == (0, None, None, None)


def test_kappa_is_undefined_when_everyone_always_gives_the_same_answer() -> None:
    result = agreement({1: {"a": "pass", "b": "pass"}, 2: {"a": "pass", "b": "pass"}})

    assert result.percent == 1
    assert result.kappa is None


@given(
    st.dictionaries(
        st.integers(0, 20),
        st.dictionaries(st.sampled_from("abcd"), st.sampled_from("xyz"), min_size=2),
        min_size=1,
    )
)
def test_agreement_is_a_share_and_kappa_at_most_one(
    ratings: dict[int, dict[str, str]],
) -> None:
    result = agreement(ratings)

    assert result.percent is not None and 0 <= result.percent <= 1
    assert result.kappa is None or result.kappa <= 1 + 1e-9

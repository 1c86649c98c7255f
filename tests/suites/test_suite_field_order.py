"""Where the fields typed on a suite's settings page go around the file's list of cases."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evals_app.services.suites.fields import arranged_document

CASES = [None, "file://more.yaml", None]


@pytest.mark.parametrize(
    ("stored", "typed", "expected"),
    [
        pytest.param(["$schema", "evalcases"], ["$schema"], ["$schema", "evalcases"], id="same"),
        pytest.param(
            ["$schema", "evalcases"],
            ["$schema", "description"],
            ["$schema", "description", "evalcases"],
            id="added before a list that came last",
        ),
        pytest.param(
            ["description", "evalcases", "execution"],
            ["description", "execution", "target"],
            ["description", "evalcases", "execution", "target"],
            id="the list stays before the field that followed it",
        ),
        pytest.param(
            ["description", "evalcases", "execution"],
            ["description", "target", "execution"],
            ["description", "target", "evalcases", "execution"],
            id="added where typed",
        ),
        pytest.param(
            ["description", "evalcases", "execution"],
            ["description"],
            ["description", "evalcases"],
            id="the field after it removed",
        ),
        pytest.param(
            ["evalcases", "description", "target"],
            ["target", "description"],
            ["evalcases", "target", "description"],
            id="reordered, the list first",
        ),
        pytest.param(["$schema", "evalcases"], [], ["evalcases"], id="every field removed"),
    ],
)
def test_the_list_of_cases_keeps_its_place_among_the_fields(
    stored: list[str], typed: list[str], expected: list[str]
) -> None:
    document = {key: CASES if key == "evalcases" else f"old {key}" for key in stored}
    fields = {key: f"new {key}" for key in typed}

    arranged = arranged_document(document, "evalcases", fields)

    assert list(arranged) == expected
    assert arranged["evalcases"] is CASES
    assert all(arranged[key] == f"new {key}" for key in typed)


keys = st.lists(st.sampled_from("abcdefgh"), unique=True, max_size=8)


@given(stored=keys, typed=keys, at=st.integers(min_value=0, max_value=8))
def test_the_fields_come_in_their_typed_order_with_the_list_once(
    stored: list[str], typed: list[str], at: int
) -> None:
    stored.insert(min(at, len(stored)), "tests")
    document = dict.fromkeys(stored)

    arranged = arranged_document(document, "tests", dict.fromkeys(typed, 1))

    assert [key for key in arranged if key != "tests"] == typed
    assert list(arranged).count("tests") == 1

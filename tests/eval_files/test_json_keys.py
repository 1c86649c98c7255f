"""A case's mapping as plain JSON for the API and back: keys that are not strings keep their
type when the document comes back to the same place."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evals_app.eval_files.json_keys import (
    KeyCollision,
    key_text,
    with_keys_typed_as,
    with_string_keys,
)

# YAML 1.2 core scalars that may be keys; 1 and true are one key in Python, as in the loader.
scalar_keys = st.one_of(
    st.text(max_size=5),
    st.integers(-5, 5).filter(lambda n: n not in (0, 1)),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
)
leaves = st.one_of(st.text(max_size=5), st.integers(), st.booleans(), st.none())


def _no_collisions(mapping: dict[Any, Any]) -> bool:
    texts = [key_text(key) for key in mapping]
    return len(texts) == len(set(texts))


documents = st.recursive(
    leaves,
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(scalar_keys, children, max_size=4).filter(_no_collisions),
    ),
    max_leaves=20,
)


@pytest.mark.parametrize(
    ("key", "text"),
    [("a", "a"), ("0", "0"), (0, "0"), (-3, "-3"), (1.5, "1.5"), (True, "true"), (None, "null")],
)
def test_a_key_becomes_its_json_text(key: Any, text: str) -> None:
    assert key_text(key) == text


@given(documents)
def test_a_document_sent_back_unchanged_is_the_stored_document(document: Any) -> None:
    as_json = json.loads(json.dumps(with_string_keys(document)))

    back = with_keys_typed_as(as_json, document)

    assert back == document
    assert repr(back) == repr(document)  # the same keys, of the same types, in the same order


def test_a_string_key_the_stored_mapping_has_stays_a_string() -> None:
    stored = {"0": "string", "scores": {1: "one"}}

    assert with_keys_typed_as({"0": "x", "scores": {"1": "y"}}, stored) == {
        "0": "x",
        "scores": {1: "y"},
    }


def test_a_key_new_at_its_place_stays_a_string() -> None:
    stored = {"scores": {1: "one"}}

    back = with_keys_typed_as({"other": {"1": "y"}, "scores": {"1": "z", "2": "w"}}, stored)

    assert repr(back) == repr({"other": {"1": "y"}, "scores": {1: "z", "2": "w"}})


def test_keys_that_would_be_one_json_key_are_refused_naming_the_field() -> None:
    document = {"evaluators": [{"score_ranges": {0: "number", "0": "string"}}]}

    with pytest.raises(KeyCollision, match=r"^evaluators\[0\]\.score_ranges: two keys"):
        with_string_keys(document)

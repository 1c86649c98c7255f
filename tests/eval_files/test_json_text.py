"""Documents stored as JSON text come back exactly: key order, and keys that are not strings."""

from __future__ import annotations

import datetime
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evals_app.eval_files.json_text import decode_json, encode_json, has_typed_keys

keys = st.one_of(st.text(max_size=5), st.integers(), st.booleans(), st.none())
leaves = st.one_of(
    st.text(max_size=5),
    st.integers(),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False),
)
documents = st.recursive(
    leaves,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(keys, children, max_size=4),
    max_leaves=20,
)


def typed(value: Any) -> Any:
    """`value` with each key and leaf paired with its type: 1 and True, equal in Python,
    are different keys in YAML."""
    if isinstance(value, dict):
        return [(type(key), key, typed(item)) for key, item in value.items()]
    if isinstance(value, list):
        return [typed(item) for item in value]
    return (type(value), value)


@given(documents)
def test_a_document_decodes_to_what_was_encoded(document: Any) -> None:
    assert typed(decode_json(encode_json(document))) == typed(document)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"a": [1, {"b": "c"}]}, False),
        ({0: "none", 10: "full"}, True),
        ({"rubric": [{"score_ranges": {True: "yes"}}]}, True),
        ({"a": {None: 1}}, True),
        ({"big": [2**70]}, False),  # beyond what orjson writes: looked at in Python
        ({2**70: "big"}, True),
        ({"text": "a lone \ud800 surrogate"}, False),
        ("plain text", False),
    ],
)
def test_keys_that_are_not_strings_are_found_wherever_they_are(value: Any, expected: bool) -> None:
    assert has_typed_keys(value) is expected


def test_a_float_that_json_has_no_number_for_comes_back() -> None:
    back = decode_json(encode_json({"scores": [math.inf, -math.inf, math.nan]}))

    assert back["scores"][:2] == [math.inf, -math.inf]
    assert math.isnan(back["scores"][2])


@pytest.mark.parametrize(
    "value", [{"day": datetime.date(2026, 1, 1)}, {"object": object()}], ids=["date", "object"]
)
def test_what_is_not_plain_data_is_refused(value: Any) -> None:
    with pytest.raises(TypeError):
        encode_json(value)

"""The fast YAML writer gives exactly the bytes PyYAML's dumper gives, or leaves the data to it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evals_app.eval_files.yaml_dumper import dump_yaml, dump_yaml_with_pyyaml
from evals_app.eval_files.yaml_emitter import Unsupported, _not_plain, emit_yaml
from evals_app.eval_files.yaml_loader import load_yaml
from tests.conftest import EXAMPLES

# Characters that change how libyaml writes a scalar: indicators, quotes, spaces and breaks,
# what it escapes (tab, NEL, BOM, non-BMP), and plain text around them.
AWKWARD = "ab -:?#,[]{}&*!|>'\"%@`.~=<+0123456789 \t\n\r\x85\xa0\ufeff\u2028\u3000é中🎉\\/"
text = st.one_of(
    st.text(alphabet=AWKWARD, max_size=12),
    st.text(max_size=12),
    # Long lines, with single and double spaces: libyaml folds them past 80 columns.
    st.lists(st.sampled_from(["word", "a", " ", "x:", "#", "'q'", "é"]), max_size=60).map(" ".join),
    st.lists(st.text(alphabet="ab ", max_size=30), min_size=2, max_size=4).map("\n".join),
    st.sampled_from(["no", "yes", "on", "null", "~", "", "1_000", "0o17", "2024-01-01", "-", "?"]),
)
keys = st.one_of(
    text,
    st.text(alphabet="abcdefgh_", min_size=1, max_size=8),
    st.integers(),
    st.booleans(),
    st.none(),
)
scalars = st.one_of(
    text, st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False, allow_infinity=True)
)
data = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=12,
)

SCALARS = [
    "plain text",
    "",
    "no",
    "True",
    "1_000",
    "0o17",
    ".inf",
    "- item",
    "-item",
    "key: value",
    "ends with colon:",
    "a #comment",
    "#start",
    "  padded  ",
    "trailing space ",
    "it's",
    "tab\there",
    "Thanks! 🎉",
    "line one\nline two\n",
    "no final break\nsecond",
    "\nleading break\n",
    " leading space\nsecond\n",
    "space before break \nsecond\n",
    "ends in blank lines\n\n",
    "blank\n\nlines\n\n\n\ninside\n",
    "\n\n\nthree leading breaks\nand a line\n",
    "a bell\x07\nin a block\n",
    "delete\x7f\nin a block\n",
    "\n\n",
    "a\u2028b",
    "word " * 30,
    ("x" * 85 + " ") * 3,
    "double  spaces " * 12,
    "é" * 90 + " tail",
]


@pytest.mark.parametrize("value", SCALARS)
def test_a_tricky_string_is_written_as_pyyaml_writes_it(value: str) -> None:
    for document in ({"key": value}, [value], {"k": [value, {"inner": value}]}, [[value]]):
        assert dump_yaml(document) == dump_yaml_with_pyyaml(document)


@settings(max_examples=500, deadline=None)
@given(document=data)
def test_any_plain_data_is_written_as_pyyaml_writes_it(document: Any) -> None:
    assert dump_yaml(document) == dump_yaml_with_pyyaml(document)


# libyaml's rule for a one-line plain scalar in block context, as one expression: no
# indicator, `---` or `...` at the start, no ": " or " #" inside, no ":" at the end, no
# space at either end.
NOT_PLAIN = re.compile(r"^(?:---|\.\.\.|[#,\[\]{}&*!|>'\"%@`]|[?:\-](?: |\Z))|:(?: |\Z)| #|^ | \Z")


@settings(max_examples=1000)
@given(value=st.one_of(text, st.text(alphabet="-.?:# ab'", min_size=1, max_size=6)))
def test_a_line_is_plain_exactly_as_libyaml_rules(value: str) -> None:
    line = value.replace("\n", " ") or "x"

    assert _not_plain(line) == (NOT_PLAIN.search(line) is not None)


@pytest.mark.parametrize("path", sorted((EXAMPLES / "evals").rglob("*.y*ml")), ids=str)
def test_the_example_suites_need_no_fallback(path: Any) -> None:
    document = load_yaml(path.read_bytes()).data

    for case in document.get("evalcases") or document["tests"]:
        assert emit_yaml([case]) == dump_yaml_with_pyyaml([case])


@pytest.mark.parametrize(
    "document",
    [
        "a bare scalar",
        {},
        {"k": "a\u2028b"},
        {1.5: "a key that is a float"},
        {"x" * 200: "a key longer than 128 bytes"},
        {"k": object()},
    ],
    ids=["scalar", "empty", "line separator", "float key", "long key", "object"],
)
def test_what_the_fast_writer_does_not_know_is_left_to_pyyaml(document: Any) -> None:
    with pytest.raises(Unsupported):
        emit_yaml(document)


@pytest.mark.parametrize(
    "document",
    [{0: "none", 10: "full"}, {-3: "negative", 2**70: "big"}, {True: "yes", False: "no"}],
    ids=["score ranges", "negative and big", "booleans"],
)
def test_number_and_boolean_keys_are_written_as_pyyaml_writes_them(document: Any) -> None:
    assert emit_yaml(document) == dump_yaml_with_pyyaml(document)


def test_shared_data_is_left_to_pyyaml_which_writes_an_alias() -> None:
    shared = {"a": 1}

    with pytest.raises(Unsupported):
        emit_yaml([shared, shared])
    assert "&id001" in dump_yaml([shared, shared])

"""TOON encoding of the visible turns (the `question_toon` of `export_evals --toon`)."""

from __future__ import annotations

import toon_format
from hypothesis import given
from hypothesis import strategies as st

from evals_app.formatting.profile_2025.formatter import format_case
from evals_app.formatting.toon import decode_turns, encode_turns
from evals_app.formatting.workspace_files import MappingFiles
from tests.formatting.factories import make_case, message


def test_turns_encode_as_a_list_of_role_keyed_objects() -> None:
    case = make_case(
        message("system", "You are a debugging expert."),
        message("user", "I have a bug in my code."),
        message("assistant", "Can you share the code?"),
    )
    formatted = format_case(case, eval_path="eval.yaml", files=MappingFiles({}))

    assert encode_turns(formatted.turns) == (
        "[3]:\n"
        "  - system: You are a debugging expert.\n"
        "  - user: I have a bug in my code.\n"
        "  - assistant: Can you share the code?"
    )


def test_multi_line_content_is_quoted_and_decodes_back() -> None:
    turns = [("user", 'Review:\n<file path="a.js">\nlet a = 1;\n</file>'), ("tool", "42")]

    encoded = encode_turns(turns)

    assert "\n  - tool: " in encoded
    assert toon_format.decode(encoded) == [{role: content} for role, content in turns]
    assert decode_turns(encoded) == turns


def test_no_turns_encode_as_an_empty_list() -> None:
    assert decode_turns(encode_turns([])) == []


@given(
    st.lists(
        st.tuples(st.sampled_from(["system", "user", "assistant", "tool"]), st.text()),
        max_size=6,
    )
)
def test_any_turns_round_trip(turns: list[tuple[str, str]]) -> None:
    assert decode_turns(encode_turns(turns)) == turns

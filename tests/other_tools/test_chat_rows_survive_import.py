"""Any row of chat JSONL survives the import: the written AgentV file, read again, holds the same
conversation (the input, then the answer as the expected output), in the same order."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from evals_app.eval_files.reading import read_eval_file
from evals_app.other_tools.base import SourceFiles
from evals_app.other_tools.conversion import convert, suite_header
from evals_app.other_tools.suite_text import suite_text
from tests.eval_files.export_formats_helpers import exported

# NUL is refused, as in every imported text (tests/imports/test_import_tests_command.py).
TEXT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=40
)
MESSAGE = st.fixed_dictionaries(
    {"role": st.sampled_from(["system", "user", "assistant", "tool"]), "content": TEXT},
    optional={"name": st.sampled_from(["example_user", "example_assistant"])},
)
ROW = st.lists(MESSAGE, min_size=1, max_size=6).map(lambda messages: {"messages": messages})
# A chat JSONL export writes no empty message (an empty expected output is no answer), and a
# test is a question: its rows ask something before anything else is said.
SPOKEN = MESSAGE.filter(lambda message: message["content"] != "")
QUESTION = SPOKEN.map(lambda message: {**message, "role": "user"})
SPOKEN_ROW = st.tuples(QUESTION, st.lists(SPOKEN, max_size=5)).map(
    lambda parts: {"messages": [parts[0], *parts[1]]}
)


def conversation(test: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages of a test: its input, then its expected output as the answer."""
    messages = list(test["vars"]["input"])
    answer = test["vars"].get("expected_output")
    if isinstance(answer, str):
        messages.append({"role": "assistant", "content": answer})
    elif isinstance(answer, list):
        messages += answer
    return messages


@given(st.lists(ROW, min_size=1, max_size=5))
def test_random_chat_rows_survive_import_unchanged(rows: list[dict[str, Any]]) -> None:
    text = "".join(json.dumps(row) + "\n" for row in rows)
    conversion = convert(SourceFiles({"rows.jsonl": text}))
    written = suite_text(suite_header(conversion), conversion.tests)
    read_back = read_eval_file(written).cases
    assert [conversation(test) for test in read_back] == [row["messages"] for row in rows]
    assert [test["metadata"]["source"]["line"] for test in read_back] == list(
        range(1, len(rows) + 1)
    )


@given(st.lists(SPOKEN_ROW, min_size=1, max_size=5))
def test_random_chat_rows_survive_import_export_and_import_again(
    rows: list[dict[str, Any]],
) -> None:
    """Back out and in again: the suite exported as chat JSONL (docs/exports.md) imports as the
    same conversations."""
    text = "".join(json.dumps(row) + "\n" for row in rows)
    conversion = convert(SourceFiles({"rows.jsonl": text}))
    header = suite_header(conversion)
    cases = read_eval_file(suite_text(header, conversion.tests)).cases
    exported_text, _ = exported("chat-jsonl", cases, header)
    again = convert(SourceFiles({"rows.jsonl": exported_text}))
    assert [conversation(test) for test in again.tests] == [row["messages"] for row in rows]

"""Comparing two versions of a case: turns aligned, word-level changes, prompt lines."""

from __future__ import annotations

from typing import Any

import pytest

from evals_app.services.review.case_diff import (
    change_summary,
    conversation_diff,
    field_changes,
    fold_unchanged,
    line_diff,
    word_diff,
)


def case(*turns: tuple[str, Any], **fields: Any) -> dict[str, Any]:
    return {
        "id": "c",
        "outcome": "o",
        **fields,
        "input_messages": [{"role": role, "content": content} for role, content in turns],
    }


def kinds(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, int | None, int | None]]:
    return [(c.kind, c.old_index, c.new_index) for c in conversation_diff(old, new)]


def test_identical_cases_have_only_unchanged_turns() -> None:
    both = case(("system", "Be brief."), ("user", "Hi"))

    assert kinds(both, both) == [("unchanged", 0, 0), ("unchanged", 1, 1)]


def test_added_and_removed_turns_are_placed_where_they_stand() -> None:
    old = case(("system", "Be brief."), ("user", "Hi"), ("assistant", "Yo"))
    new = case(("system", "Be brief."), ("assistant", "Yo"), ("user", "Thanks, bye"))

    assert kinds(old, new) == [
        ("unchanged", 0, 0),
        ("removed", 1, None),
        ("unchanged", 2, 1),
        ("added", None, 2),
    ]


def test_swapped_turns_are_moves() -> None:
    old = case(("system", "A"), ("user", "B long text here"), ("assistant", "C other words"))
    new = case(("system", "A"), ("assistant", "C other words"), ("user", "B long text here"))

    assert kinds(old, new) == [("unchanged", 0, 0), ("moved", 2, 1), ("moved", 1, 2)]


def test_edited_turn_is_changed_with_word_level_differences() -> None:
    old = case(("user", "My order never arrived."))
    new = case(("user", "My parcel never arrived yesterday."))

    [change] = conversation_diff(old, new)

    assert change.kind == "changed"
    assert change.words == [
        ("equal", "My "),
        ("delete", "order"),
        ("insert", "parcel"),
        ("equal", " never "),
        ("delete", "arrived."),
        ("insert", "arrived yesterday."),
    ]


def test_role_change_and_file_references_are_reported() -> None:
    old = case(
        ("assistant", [{"type": "text", "value": "Result"}, {"type": "file", "value": "a.json"}])
    )
    new = case(("tool", [{"type": "text", "value": "Result"}, {"type": "file", "value": "b.json"}]))

    [change] = conversation_diff(old, new)

    assert change.kind == "changed" and change.role_changed
    assert change.files_added == ["b.json"] and change.files_removed == ["a.json"]


def test_case_fields_that_changed_are_listed_with_their_words() -> None:
    changes = field_changes(case(outcome="Finds the bug."), case(outcome="Finds the loop bug."))

    assert [(c.name, c.old, c.new) for c in changes] == [
        ("outcome", "Finds the bug.", "Finds the loop bug.")
    ]


def test_word_diff_keeps_whitespace_and_line_breaks() -> None:
    parts = word_diff("a b\nc", "a  b\nd")

    assert "".join(text for op, text in parts if op != "delete") == "a  b\nd"
    assert "".join(text for op, text in parts if op != "insert") == "a b\nc"


def test_line_diff_pairs_changed_lines_side_by_side() -> None:
    rows = line_diff(
        "@[User]:\nHi\n\n@[Assistant]:\nYo", "@[User]:\nHello\n\n@[Assistant]:\nYo\nMore"
    )

    assert [(r.op, r.old, r.new) for r in rows] == [
        ("equal", "@[User]:", "@[User]:"),
        ("replace", "Hi", "Hello"),
        ("equal", "", ""),
        ("equal", "@[Assistant]:", "@[Assistant]:"),
        ("equal", "Yo", "Yo"),
        ("insert", None, "More"),
    ]


def folds(text: str, context: int = 1) -> list[str]:
    """`text` (one letter per item, `=` unchanged) folded: each run as its letters, folded
    runs in brackets."""
    runs = fold_unchanged(list(text), lambda item: item == "=", context)
    return ["[" + "".join(run.items) + "]" if run.folded else "".join(run.items) for run in runs]


@pytest.mark.parametrize(
    ("items", "context", "expected"),
    [
        ("", 3, []),
        ("ab", 3, ["ab"]),
        ("=====", 3, ["[=====]"]),  # nothing changed: all of it folds
        ("=====a", 1, ["[====]", "=a"]),  # context only next to the change
        ("a=====", 1, ["a=", "[====]"]),
        ("a======b", 2, ["a==", "[==]", "==b"]),
        ("a=====b", 2, ["a=====b"]),  # one line would fold: not worth a control
        ("a====b====c", 1, ["a=", "[==]", "=b=", "[==]", "=c"]),
        ("a==b", 0, ["a", "[==]", "b"]),
    ],
)
def test_unchanged_runs_fold_beyond_their_context(
    items: str, context: int, expected: list[str]
) -> None:
    assert folds(items, context) == expected


def test_a_one_line_change_in_a_long_prompt_keeps_three_lines_around_it() -> None:
    old = "\n".join(f"line {n}" for n in range(100))
    new = old.replace("line 50", "line fifty")

    runs = fold_unchanged(line_diff(old, new), lambda row: row.op == "equal")

    assert [(len(run.items), run.folded) for run in runs] == [(47, True), (7, False), (46, True)]
    assert [row.op for row in runs[1].items] == ["equal"] * 3 + ["replace"] + ["equal"] * 3


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (case(("user", "Hi")), case(("user", "Hi")), []),
        (case(("user", "Hi")), case(("user", "Hi"), ("assistant", "Yo")), ["turn 2 added"]),
        (case(("system", "S"), ("user", "Hi")), case(("user", "Hi")), ["turn 1 removed"]),
        (case(("user", "Hi there")), case(("user", "Hi you there")), ["turn 1 text edited"]),
        (case(("user", "Hi")), case(("system", "Hi")), ["turn 1 role user → system"]),
        (
            case(("user", [{"type": "text", "value": "Hi"}])),
            case(("user", [{"type": "text", "value": "Hi"}, {"type": "file", "value": "a.md"}])),
            ["turn 1 files changed"],
        ),
        (
            case(("system", "Be brief."), ("user", "Hi")),
            case(("user", "Hi"), ("system", "Be brief.")),
            ["turn 2 moved to 1", "turn 1 moved to 2"],
        ),
        (case(("user", "Hi")), case(("user", "Hi"), outcome="Better."), ["outcome changed"]),
        (case(("user", "Hi")), case(("user", "Hi"), id="renamed"), ["id c → renamed"]),
        (
            case(("user", "Hi")),
            case(("user", "Hi"), execution={"evaluators": [{"type": "code", "script": "x"}]}),
            ["evaluators changed"],
        ),
        (
            case(("user", "Hi")),
            {**case(("user", "Hi")), "expected_messages": [{"role": "assistant", "content": "A"}]},
            ["expected message 1 added"],
        ),
    ],
)
def test_history_summary_says_what_changed(
    old: dict[str, Any], new: dict[str, Any], expected: list[str]
) -> None:
    assert change_summary(old, new) == expected

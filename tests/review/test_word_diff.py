"""Word-level diffs (history's compare, conflicts, suggestions) show a changed passage as its
removed words then its added words, never interleaved token by token."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from evals_app.services.review.case_diff import word_diff

texts = st.lists(
    st.one_of(st.sampled_from(["the", "unit", "test", "Finds", "bug", "history"]), st.just(" ")),
    max_size=12,
).map(lambda parts: " ".join(parts))


def test_a_changed_passage_is_its_removed_words_then_its_added_words() -> None:
    parts = word_diff("Finds the bug in the unit test history", "Finds CHANGED the unit history")

    assert parts == [
        ("equal", "Finds "),
        ("delete", "the bug in"),
        ("insert", "CHANGED"),
        ("equal", " the unit "),
        ("delete", "test "),
        ("equal", "history"),
    ]


@given(texts, texts)
def test_the_runs_give_back_both_texts_and_never_interleave(old: str, new: str) -> None:
    parts = word_diff(old, new)

    assert "".join(text for op, text in parts if op != "insert") == old
    assert "".join(text for op, text in parts if op != "delete") == new
    ops = [op for op, _ in parts]
    # Between two unchanged runs: at most one removal, then at most one addition.
    for first, second in zip(ops, ops[1:], strict=False):
        assert first != second
        assert (first, second) != ("insert", "delete")

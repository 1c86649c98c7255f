"""`split_case` and `join_case` are each other's inverse for a case of any AgentV period."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings

from evals_app.editor.case_drafts import CaseDraft
from evals_app.eval_files.case_parts import join_case, split_case
from tests.strategies import period_cases


def exactly(data: Any) -> str:
    """`data` with key order and key types showing (`==` takes `{1: x}` for `{True: x}`)."""
    return repr(data)


@settings(max_examples=200)
@given(case=period_cases())
def test_reading_then_writing_a_case_of_any_period_gives_it_back(case: dict[str, Any]) -> None:
    assert exactly(join_case(split_case(case))) == exactly(case)


@settings(max_examples=100)
@given(case=period_cases())
def test_a_draft_of_a_case_of_any_period_gives_it_back(case: dict[str, Any]) -> None:
    assert exactly(CaseDraft.from_document(case).document()) == exactly(case)

"""The editor's draft: a lossless view of a case mapping, and the structural edits on it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings

from evals_app.editor.case_drafts import CaseDraft, DraftFormError, TurnDraft
from evals_app.eval_files.yaml_loader import load_yaml
from tests.conftest import EXAMPLES
from tests.factories import key_orders
from tests.strategies import cases

EXAMPLE_CASES = [
    pytest.param(case, id=f"{path.name}:{case['id']}")
    for path in sorted((EXAMPLES / "evals").rglob("*.y*ml"))
    for data in [load_yaml(path.read_bytes()).data]
    for case in data.get("evalcases") or data["tests"]
]


@pytest.mark.parametrize("case", EXAMPLE_CASES)
def test_example_case_comes_back_unchanged_from_a_draft(case: dict[str, Any]) -> None:
    document = CaseDraft.from_document(case).document()

    assert document == case
    assert key_orders(document) == key_orders(case)


@settings(max_examples=200)
@given(case=cases())
def test_any_case_comes_back_unchanged_from_a_draft(case: dict[str, Any]) -> None:
    document = CaseDraft.from_document(case).document()

    assert document == case
    assert key_orders(document) == key_orders(case)


def draft_of(*roles: str) -> CaseDraft:
    return CaseDraft.from_document(
        {
            "id": "c",
            "outcome": "o",
            "input_messages": [{"role": role, "content": f"{role} text"} for role in roles],
        }
    )


def test_adding_a_turn_appends_it_and_focuses_its_text_box() -> None:
    draft = draft_of("user")

    focus = draft.apply("add-turn:input:assistant")

    assert [turn.role for turn in draft.input_turns] == ["user", "assistant"]
    assert focus == "input-1-block-0-value"
    assert draft.document()["input_messages"][1] == {"role": "assistant", "content": ""}


def test_adding_an_expected_message_goes_to_expected_messages() -> None:
    draft = draft_of("user")

    draft.apply("add-turn:expected:assistant")

    assert draft.document()["expected_messages"] == [{"role": "assistant", "content": ""}]


def test_adding_a_file_turns_string_content_into_a_block_list() -> None:
    draft = draft_of("user")

    focus = draft.apply("add-block:input:0:file")
    draft.input_turns[0].blocks[1].value = "notes.md"

    assert focus == "input-0-block-1-value"
    assert draft.document()["input_messages"][0]["content"] == [
        {"type": "text", "value": "user text"},
        {"type": "file", "value": "notes.md"},
    ]


def test_moving_a_turn_up_swaps_it_with_the_one_before_and_keeps_focus_on_it() -> None:
    draft = draft_of("system", "user", "assistant")

    focus = draft.apply("move-turn:input:2:up")

    assert [turn.role for turn in draft.input_turns] == ["system", "assistant", "user"]
    assert focus == "input-1-move-up"


def test_moving_a_turn_to_the_end_focuses_its_other_move_button() -> None:
    draft = draft_of("system", "user", "assistant")

    focus = draft.apply("move-turn:input:1:down")

    assert [turn.role for turn in draft.input_turns] == ["system", "assistant", "user"]
    assert focus == "input-2-move-up"


def test_moving_the_first_turn_up_leaves_the_order_as_it_is() -> None:
    draft = draft_of("system", "user")

    draft.apply("move-turn:input:0:up")

    assert [turn.role for turn in draft.input_turns] == ["system", "user"]


def test_deleting_a_turn_removes_only_that_turn() -> None:
    draft = draft_of("system", "user", "assistant")

    draft.apply("delete-turn:input:1")

    assert [turn.role for turn in draft.input_turns] == ["system", "assistant"]


def test_moving_and_deleting_blocks_keep_the_other_blocks() -> None:
    draft = draft_of("user")
    draft.apply("add-block:input:0:text")
    draft.input_turns[0].blocks[1].value = "second"

    draft.apply("move-block:input:0:1:up")
    draft.apply("delete-block:input:0:1")

    assert draft.document()["input_messages"][0]["content"] == [{"type": "text", "value": "second"}]


def test_evaluators_are_added_and_removed_under_execution() -> None:
    draft = draft_of("user")

    draft.apply("add-evaluator:code")
    draft.evaluators[0].script = "uv run check.py"
    assert draft.document()["execution"] == {
        "evaluators": [{"type": "code", "script": "uv run check.py"}]
    }

    draft.apply("delete-evaluator:0")
    assert "execution" not in draft.document()


def test_clearing_the_target_leaves_the_key_out() -> None:
    draft = CaseDraft.from_document(
        {
            "id": "c",
            "outcome": "o",
            "input_messages": [{"role": "user", "content": "x"}],
            "execution": {"target": "azure", "evaluators": []},
        }
    )

    draft.target = ""

    assert draft.document()["execution"] == {"evaluators": []}


@pytest.mark.parametrize(
    "action",
    [
        "explode",
        "add-turn:input:robot",
        "add-turn:sideways:user",
        "delete-turn:input:7",
        "move-turn:input:0:left",
        "add-block:input:0:image",
        "delete-turn:input:x",
    ],
)
def test_malformed_action_is_refused(action: str) -> None:
    with pytest.raises(DraftFormError):
        draft_of("user").apply(action)


def minimal_form(**fields: str) -> dict[str, str]:
    form = {
        "id": "c",
        "outcome": "o",
        "version": "1",
        "input-count": "1",
        "input-0-role": "user",
        "input-0-block-count": "1",
        "input-0-block-0-value": "hi",
    }
    form.update(fields)
    return form


def test_form_becomes_the_case_mapping() -> None:
    draft = CaseDraft.from_form(minimal_form())

    assert draft.document() == {
        "id": "c",
        "outcome": "o",
        "input_messages": [{"role": "user", "content": "hi"}],
    }
    assert draft.version == 1


def test_form_text_keeps_line_breaks_without_carriage_returns() -> None:
    draft = CaseDraft.from_form(minimal_form(**{"input-0-block-0-value": "a\r\nb"}))

    assert draft.input_turns[0].blocks[0].value == "a\nb"


@pytest.mark.parametrize(
    "fields",
    [
        {"input-0-role": "robot"},
        {"input-count": "100000"},
        {"input-count": "-1"},
        {"version": "one"},
        {"input-0-meta": "{not json"},
        {"input-0-meta": "[1, 2]"},
        {"case-meta": '{"extra": [], "key_order": []}'},
    ],
)
def test_form_the_editor_did_not_produce_is_refused(fields: dict[str, str]) -> None:
    with pytest.raises(DraftFormError):
        CaseDraft.from_form(minimal_form(**fields))


def test_new_turn_is_a_single_empty_text() -> None:
    assert TurnDraft().document() == {"role": "user", "content": ""}


def test_multi_line_inline_judge_prompt_keeps_its_lines() -> None:
    template = "Grade this.\r\n\r\n{{question}}\r\n"
    draft = CaseDraft.from_form(
        minimal_form(
            **{
                "evaluator-count": "1",
                "evaluator-0-type": "llm_judge",
                "evaluator-0-prompt": template,
            }
        )
    )

    assert (
        draft.document()["execution"]["evaluators"][0]["prompt"] == "Grade this.\n\n{{question}}\n"
    )

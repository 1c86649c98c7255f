"""Today's test in the editor's draft: variables, asserts and conversation turns come back as
they were while unchanged, and edits land in the shape and place they were written."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from evals_app.editor.case_drafts import CaseDraft, DraftValueError
from evals_app.editor.drafts_2026 import AssertDraft, VariableDraft
from evals_app.formatting.profile_2026.expansion import expand_test, read_prompts
from evals_app.formatting.workspace_files import MappingFiles
from tests.factories import key_orders
from tests.strategies import today_tests


def draft_of(document: dict[str, Any]) -> CaseDraft:
    return CaseDraft.from_document(document)


@settings(max_examples=200)
@given(test=today_tests())
# A turn whose expected output is written as `null`.
@example(
    test={"id": "case", "mode": "conversation", "turns": [{"input": "no", "expected_output": None}]}
)
def test_any_todays_test_comes_back_unchanged_from_a_draft(test: dict[str, Any]) -> None:
    document = draft_of(test).document()

    assert document == test
    assert key_orders(document) == key_orders(test)


@pytest.mark.parametrize(
    ("value", "kind", "text"),
    [
        ("French", "text", "French"),
        (3, "number", "3"),
        (0.5, "number", "0.5"),
        (True, "boolean", "true"),
        (["English", "French"], "list", "English\nFrench"),
        (["two\nlines"], "json", '[\n  "two\\nlines"\n]'),
        ({"plan": "team"}, "json", '{\n  "plan": "team"\n}'),
        (None, "json", "null"),
    ],
)
def test_a_variable_is_shown_as_a_field_of_its_type(value: Any, kind: str, text: str) -> None:
    variable = VariableDraft.from_value("name", value)

    assert (variable.kind, variable.text) == (kind, text)


@pytest.mark.parametrize(
    ("kind", "text", "value"),
    [
        ("text", "Lumen", "Lumen"),
        ("number", " 42 ", 42),
        ("number", "2.5", 2.5),
        ("boolean", "false", False),
        ("list", "English\n\n French \n", ["English", "French"]),
        ("json", '{"a": [1, 2]}', {"a": [1, 2]}),
    ],
)
def test_a_typed_variable_field_gives_a_value_of_its_type(kind: str, text: str, value: Any) -> None:
    problems: list[tuple[str, str]] = []

    assert VariableDraft(name="v", kind=kind, text=text).value(problems, "var-0") == value
    assert problems == []


def test_a_list_variable_counts_the_tests_it_makes() -> None:
    draft = draft_of({"id": "t", "vars": {"lang": ["en", "fr", "de"], "size": ["s", "m"]}})

    assert [variable.expansions for variable in draft.test.variables or []] == [3, 2]
    assert draft.test.expansions == 6


def test_a_number_that_does_not_parse_is_named_and_nothing_is_written() -> None:
    draft = draft_of({"id": "t", "vars": {"count": 3}})
    (draft.test.variables or [])[0].text = "three"

    with pytest.raises(DraftValueError, match="Value of variable 1: 'three' is not a number"):
        draft.document()


@pytest.mark.parametrize("name", ["", "input", "expected_output", "lang"])
def test_a_variable_name_must_be_new_and_not_the_conversations(name: str) -> None:
    draft = draft_of({"id": "t", "vars": {"lang": "en", "other": 1}})
    (draft.test.variables or [])[1].name = name

    with pytest.raises(DraftValueError, match="Name of variable 2"):
        draft.document()


def test_a_renamed_variable_keeps_its_place_and_the_input_keeps_its() -> None:
    draft = draft_of({"id": "t", "vars": {"input": "Hi", "lang": "en", "tone": "warm"}})
    (draft.test.variables or [])[0].name = "language"

    assert draft.document()["vars"] == {"input": "Hi", "language": "en", "tone": "warm"}
    assert list(draft.document()["vars"]) == ["input", "language", "tone"]


def test_removing_the_last_variable_removes_vars_unless_the_input_is_there() -> None:
    alone = draft_of({"id": "t", "vars": {"lang": "en"}, "criteria": "c"})
    with_input = draft_of({"id": "t", "vars": {"input": "Hi", "lang": "en"}})
    for draft in (alone, with_input):
        draft.apply("delete-var:0")

    assert alone.document() == {"id": "t", "criteria": "c"}
    assert with_input.document() == {"id": "t", "vars": {"input": "Hi"}}


def test_an_unchanged_assert_is_written_as_read() -> None:
    entry = {"type": "script", "command": ["python3", "check.py"], "required": 0.8, "x": 1}
    draft = draft_of({"id": "t", "assert": [entry]})

    assert draft.document()["assert"][0] is entry


def test_an_argv_command_stays_a_list_when_edited() -> None:
    draft = draft_of({"id": "t", "assert": [{"type": "script", "command": ["python3", "a b.py"]}]})
    (draft.test.asserts or [])[0].command = "python3 'c d.py' --strict"

    assert draft.document()["assert"] == [
        {"type": "script", "command": ["python3", "c d.py", "--strict"]}
    ]


def test_required_as_a_minimum_score_stays_while_ticked_and_goes_when_unticked() -> None:
    draft = draft_of({"id": "t", "assert": [{"type": "contains", "value": "x", "required": 0.8}]})
    item = (draft.test.asserts or [])[0]
    item.weight = "2"

    assert draft.document()["assert"] == [
        {"type": "contains", "value": "x", "required": 0.8, "weight": 2}
    ]
    item.required = False
    assert draft.document()["assert"] == [{"type": "contains", "value": "x", "weight": 2}]


@pytest.mark.parametrize(
    ("kind", "fields", "expected"),
    [
        ("rubric", {"value": "Mentions the refund window"}, "Mentions the refund window"),
        ("contains", {"value": "30 days"}, {"type": "contains", "value": "30 days"}),
        (
            "regex",
            {"value": "^Yes", "required": True},
            {"type": "regex", "value": "^Yes", "required": True},
        ),
        (
            "equals",
            {"value": "4", "weight": "0.5"},
            {"type": "equals", "value": "4", "weight": 0.5},
        ),
        (
            "llm-rubric",
            {"prompt": "file://judges/a.md"},
            {"type": "llm-rubric", "prompt": "file://judges/a.md"},
        ),
        (
            "script",
            {"command": "node check.js", "cwd": "scripts"},
            {"type": "script", "command": "node check.js", "cwd": "scripts"},
        ),
        ("other", {"yaml_text": "type: is-json\nweight: 2\n"}, {"type": "is-json", "weight": 2}),
    ],
)
def test_an_added_assert_of_each_kind_is_written_in_agentvs_shape(
    kind: str, fields: dict[str, Any], expected: Any
) -> None:
    draft = draft_of({"id": "t", "criteria": "c"})
    draft.apply(f"add-assert:case:{kind}")
    item = (draft.test.asserts or [])[0]
    for name, value in fields.items():
        setattr(item, name, value)

    assert draft.document() == {"id": "t", "criteria": "c", "assert": [expected]}


def test_an_assert_written_as_yaml_that_does_not_parse_is_named() -> None:
    draft = draft_of({"id": "t", "assert": [{"type": "is-json", "value": [1]}]})
    item = (draft.test.asserts or [])[0]
    assert item.kind == "other"
    item.yaml_text = "type: [is-json"

    with pytest.raises(DraftValueError, match="Assert 1: not valid YAML"):
        draft.document()


def test_asserts_move_and_removing_all_of_them_removes_the_key() -> None:
    draft = draft_of({"id": "t", "assert": ["first", "second"], "criteria": "c"})

    draft.apply("move-assert:case:0:down")
    assert draft.document()["assert"] == ["second", "first"]
    draft.apply("delete-assert:case:0")
    draft.apply("delete-assert:case:0")
    assert draft.document() == {"id": "t", "criteria": "c"}


def test_a_test_made_a_conversation_gets_its_mode_before_its_first_turn() -> None:
    draft = draft_of({"id": "t", "vars": {"input": "Hi"}})

    draft.apply("make-conversation")
    draft.test.turns[0].input_text = "Where is my order?"  # type: ignore[index]

    assert draft.document() == {
        "id": "t",
        "vars": {"input": "Hi"},
        "mode": "conversation",
        "turns": [{"input": "Where is my order?"}],
    }


def test_conversation_turns_are_added_moved_and_removed() -> None:
    draft = draft_of({"id": "t", "mode": "conversation", "turns": [{"input": "one"}]})

    draft.apply("add-cturn")
    draft.test.turns[1].input_text = "two"  # type: ignore[index]
    draft.test.turns[1].expected_text = "Answer two."  # type: ignore[index]
    draft.apply("move-cturn:1:up")
    draft.apply("add-assert:cturn-0:contains")
    draft.test.turns[0].asserts[0].value = "two"  # type: ignore[index]

    assert draft.document()["turns"] == [
        {
            "input": "two",
            "expected_output": "Answer two.",
            "assert": [{"type": "contains", "value": "two"}],
        },
        {"input": "one"},
    ]
    draft.apply("delete-cturn:0")
    assert draft.document()["turns"] == [{"input": "one"}]


def test_a_turn_input_of_messages_is_edited_as_yaml() -> None:
    turn = {"input": [{"role": "user", "content": "Hi"}], "expected_output": "Hello"}
    draft = draft_of({"id": "t", "mode": "conversation", "turns": [turn]})
    edited = (draft.test.turns or [])[0]
    assert edited.input_form == "yaml"
    edited.input_text = "- role: user\n  content: Hello there\n"

    assert draft.document()["turns"] == [
        {"input": [{"role": "user", "content": "Hello there"}], "expected_output": "Hello"}
    ]


@pytest.mark.parametrize(
    ("typed", "written"), [("", None), ("3", 3), ("min", "error"), ("0", "error")]
)
def test_the_window_size_is_a_whole_number_or_nothing(typed: str, written: Any) -> None:
    draft = draft_of({"id": "t", "mode": "conversation", "turns": [], "window_size": 2})
    draft.test.settings["window_size"] = typed

    if written == "error":
        with pytest.raises(DraftValueError, match=r"Window \(exchanges kept\)"):
            draft.document()
    else:
        assert draft.document().get("window_size") == written


def test_a_case_of_an_older_period_is_offered_only_the_parts_it_has() -> None:
    draft = draft_of({"id": "t", "outcome": "o", "input_messages": [], "assert": ["x"]})

    draft.fit_suite("evalcases", today=False, prompts=False)

    assert draft.test.variables is None
    assert [item.value for item in draft.test.asserts or []] == ["x"]
    assert draft.test.turns is None


def test_criteria_typed_into_a_todays_test_without_one_are_its_criteria() -> None:
    draft = draft_of({"id": "t", "vars": {"input": "Hi"}})
    draft.fit_suite("tests", today=True, prompts=True)
    draft.outcome = "Greets back."

    assert draft.document() == {"id": "t", "vars": {"input": "Hi"}, "criteria": "Greets back."}


def test_an_assert_draft_of_a_string_is_a_rubric_line() -> None:
    assert AssertDraft.from_document("Is polite").kind == "rubric"


@settings(max_examples=100)
@given(test=today_tests(), prompts=st.integers(1, 3))
def test_the_editors_count_of_tests_is_the_engines(test: dict[str, Any], prompts: int) -> None:
    header = {"prompts": [f"{{{{ input }}}} ({number})" for number in range(prompts)]}
    draft = draft_of(test)
    engine = list(
        expand_test(
            test,
            header,
            read_prompts(
                header["prompts"], eval_path="e.yaml", files=MappingFiles({}), warnings=[]
            ),
        )
    )

    assert len(engine) == draft.test.expansions * prompts

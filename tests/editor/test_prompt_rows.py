"""The rows of the Prompts card: each entry of `prompts` as the settings page edits it, read back
from the posted form exactly as it was, and the card's add, remove and move."""

from __future__ import annotations

from typing import Any

import pytest

from evals_app.editor.prompt_rows import PromptFormError, apply_action, rows_from_form
from evals_app.eval_files.errors import EvalFileError
from evals_app.services.suites.prompts import PromptRow, entries_of, rows_of

CHAT = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "{{ input }}"}]


@pytest.mark.parametrize(
    ("entry", "row"),
    [
        pytest.param("{{ input }}", PromptRow("template", "{{ input }}"), id="template"),
        pytest.param("file://prompts/a.md", PromptRow("file", "prompts/a.md"), id="file"),
        pytest.param(
            {"id": "terse", "raw": "{{ input }}"},
            PromptRow("yaml", "id: terse\nraw: '{{ input }}'\n"),
            id="mapping",
        ),
        pytest.param(
            CHAT,
            PromptRow(
                "yaml",
                "- role: system\n  content: Be brief.\n- role: user\n  content: '{{ input }}'\n",
            ),
            id="chat array",
        ),
    ],
)
def test_each_kind_of_prompt_gets_its_row(entry: Any, row: PromptRow) -> None:
    assert rows_of([entry]) == [row]


def test_a_chat_array_written_as_the_whole_value_is_one_prompt() -> None:
    assert [row.kind for row in rows_of(CHAT)] == ["yaml"]


@pytest.mark.parametrize("stored", [None, []], ids=["missing", "empty"])
def test_no_prompts_make_no_rows(stored: Any) -> None:
    assert rows_of(stored) == []


@pytest.mark.parametrize(
    "entry",
    [
        "Answer in {{ language }}:\n\n{{ input }}\n",
        "file://../../prompts/a.md",
        CHAT,
        {"id": "p", "label": "Terse", "raw": "x", 1: "a key that is a number"},
        {"id": "p", "messages": CHAT, "weight": 1.0, "strict": True},
    ],
    ids=["template", "file", "chat array", "typed keys", "typed values"],
)
def test_rows_read_back_as_the_entries_they_came_from(entry: Any) -> None:
    read_back = entries_of(rows_of([entry]))

    assert read_back == [entry]
    assert [type(key) for key in _keys(read_back[0])] == [type(key) for key in _keys(entry)]
    assert [type(value) for value in _values(read_back[0])] == [
        type(value) for value in _values(entry)
    ]


def _keys(value: Any) -> list[Any]:
    return list(value) if isinstance(value, dict) else []


def _values(value: Any) -> list[Any]:
    return list(value.values()) if isinstance(value, dict) else []


def test_a_posted_form_gives_its_rows_with_unix_line_ends() -> None:
    posted = {
        "prompt-count": "2",
        "prompt-0-kind": "template",
        "prompt-0-text": "Answer:\r\n{{ input }}",
        "prompt-1-kind": "file",
        "prompt-1-text": "prompts/a.md",
    }

    assert rows_from_form(posted) == [
        PromptRow("template", "Answer:\n{{ input }}"),
        PromptRow("file", "prompts/a.md"),
    ]


@pytest.mark.parametrize(
    "posted",
    [
        {},
        {"prompt-count": "x"},
        {"prompt-count": "100000"},
        {"prompt-count": "1"},
        {"prompt-count": "1", "prompt-0-kind": "python"},
    ],
    ids=["no count", "not a number", "too many", "no kind", "unknown kind"],
)
def test_a_form_the_page_did_not_make_is_refused(posted: dict[str, str]) -> None:
    with pytest.raises(PromptFormError):
        rows_from_form(posted)


ROWS = [PromptRow("template", "a"), PromptRow("template", "b"), PromptRow("file", "c.md")]


@pytest.mark.parametrize(
    ("action", "texts", "focus"),
    [
        ("add:template", ["a", "b", "c.md", ""], "prompt-3-text"),
        ("add:file", ["a", "b", "c.md", ""], "prompt-3-text"),
        ("remove:1", ["a", "c.md"], "prompt-0-text"),
        ("move:2:up", ["a", "c.md", "b"], "prompt-1-move-up"),
        ("move:0:down", ["b", "a", "c.md"], "prompt-1-move-down"),
        ("move:0:up", ["a", "b", "c.md"], "prompt-0-move-up"),
    ],
)
def test_structural_edits_change_the_unsaved_rows(
    action: str, texts: list[str], focus: str
) -> None:
    rows, focused = apply_action(ROWS, action)

    assert [row.text for row in rows] == texts
    assert focused == focus


def test_an_added_prompt_file_is_a_file_row() -> None:
    rows, _ = apply_action([], "add:file")

    assert rows == [PromptRow("file", "")]


@pytest.mark.parametrize("action", ["add:yaml", "remove:3", "move:1:left", "remove:x", "drop:0"])
def test_an_action_the_page_does_not_make_is_refused(action: str) -> None:
    with pytest.raises(PromptFormError):
        apply_action(ROWS, action)


def test_yaml_that_does_not_parse_names_the_prompt_and_its_line() -> None:
    rows = [PromptRow("template", "{{ input }}"), PromptRow("yaml", "id: p\nraw: [x\n")]

    with pytest.raises(EvalFileError) as raised:
        entries_of(rows)

    assert raised.value.message.startswith("Prompt 2, line 3: not valid YAML")
    assert raised.value.line == 3


def test_a_prompt_file_without_a_path_is_refused() -> None:
    with pytest.raises(EvalFileError, match="Prompt 1: type the path of the prompt file"):
        entries_of([PromptRow("file", "  ")])


def test_an_empty_yaml_prompt_is_refused() -> None:
    with pytest.raises(EvalFileError, match="Prompt 1 is empty"):
        entries_of([PromptRow("yaml", "# nothing\n")])


def test_prompts_that_are_each_one_chat_message_are_refused() -> None:
    # Written as a list, they would be one chat array to AgentV: one prompt, not two.
    rows = [PromptRow("yaml", "role: user\ncontent: a\n"), PromptRow("yaml", "role: user\n")]

    with pytest.raises(EvalFileError, match="one chat array"):
        entries_of(rows)

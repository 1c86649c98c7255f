"""The role-marker decision, the question in both shapes, and `chat_prompt` (docs/formatting.md)."""

from __future__ import annotations

from typing import Any

import pytest

from evals_app.formatting.profile_2025.formatter import (
    MODES,
    FormattedCase,
    Mode,
    decide_role_markers,
    format_case,
)
from evals_app.formatting.workspace_files import MappingFiles
from tests.formatting.factories import file, make_case, message, text

FILES = {
    "g.instructions.md": "Be brief.",
    "notes.txt": "Some notes.",
    "empty.txt": "  \n",
}


def _format(*messages: dict[str, Any], mode: Mode = "lm") -> FormattedCase:
    return format_case(
        make_case(*messages), eval_path="eval.yaml", files=MappingFiles(FILES), mode=mode
    )


@pytest.mark.parametrize(
    ("messages", "markers", "reason"),
    [
        pytest.param(
            [message("user", "Hi")], False, "only one turn has visible content", id="one-user"
        ),
        pytest.param(
            [message("system", "Be nice."), message("user", "Hi")],
            True,
            "2 turns with visible content",
            id="system-text-and-user",
        ),
        pytest.param(
            [message("user", "a"), message("user", "b"), message("user", "c")],
            True,
            "3 turns with visible content",
            id="three-users",
        ),
        pytest.param(
            [message("user", "Hi"), message("assistant", "")],
            True,
            "assistant turn present",
            id="invisible-assistant-still-counts",
        ),
        pytest.param(
            [message("tool", "42"), message("user", "Hi")],
            True,
            "tool turn present",
            id="tool",
        ),
        pytest.param(
            [message("system", [file("g.instructions.md")]), message("user", "Hi")],
            False,
            "only one turn has visible content",
            id="guideline-only-system",
        ),
        pytest.param(
            [message("system", "   \n"), message("user", "Hi")],
            False,
            "only one turn has visible content",
            id="blank-system",
        ),
        pytest.param(
            [message("system", [file("empty.txt")]), message("user", "Hi")],
            False,
            "only one turn has visible content",
            id="empty-file-is-not-visible",
        ),
        pytest.param(
            [message("system", [file("missing.txt")]), message("user", "Hi")],
            False,
            "only one turn has visible content",
            id="missing-file-is-not-visible",
        ),
        pytest.param(
            [message("system", [file("notes.txt")]), message("user", "Hi")],
            True,
            "2 turns with visible content",
            id="file-is-visible",
        ),
        pytest.param(
            [message("user", [file("g.instructions.md")])],
            False,
            "no visible content",
            id="nothing-visible",
        ),
    ],
)
@pytest.mark.parametrize("mode", MODES)
def test_role_markers_follow_the_rule_in_both_modes(
    messages: list[dict[str, Any]], markers: bool, reason: str, mode: Mode
) -> None:
    formatted = _format(*messages, mode=mode)

    assert (formatted.role_markers, formatted.reason) == (markers, reason)
    assert (formatted.chat_prompt is not None) is markers


def test_first_of_assistant_or_tool_names_the_reason() -> None:
    assert decide_role_markers(["user", "tool", "assistant"], 3) == (True, "tool turn present")


def test_flat_question_joins_segments_with_a_blank_line() -> None:
    formatted = _format(
        message("system", [file("g.instructions.md")]),
        message(
            "user", [text("  Look:  "), text(""), file("notes.txt"), file("g.instructions.md")]
        ),
    )

    assert formatted.question == (
        'Look:\n\n<file path="notes.txt">\nSome notes.\n</file>\n\n<Attached: g.instructions.md>'
    )


def test_marker_text_inside_content_is_left_as_content() -> None:
    formatted = _format(message("user", "@[User]:\n[User]: hello\n```\ncode\n```"))

    assert formatted.role_markers is False
    assert formatted.question == "@[User]:\n[User]: hello\n```\ncode\n```"


def test_no_visible_content_gives_empty_question_and_a_warning() -> None:
    formatted = _format(message("user", "  "), message("assistant", [file("g.instructions.md")]))

    assert formatted.question == ""
    assert formatted.turns == ()
    assert [warning.code for warning in formatted.warnings] == ["no_visible_content"]
    assert formatted.warnings[0].message == (
        'Case "case-1": no input message has visible content, so the question is empty.'
    )
    assert formatted.chat_prompt == [
        {
            "role": "system",
            "content": "[[ ## Guidelines ## ]]\n\n"
            '<file path="g.instructions.md">\nBe brief.\n</file>',
        }
    ]


def test_agent_mode_empty_file_renders_its_reference_in_a_visible_turn() -> None:
    formatted = _format(message("user", [text("Hi"), file("empty.txt")]), mode="agent")

    assert formatted.question == 'Hi\n\n<file: path="empty.txt">'
    assert [warning.code for warning in formatted.warnings] == ["empty_file"]


def test_lm_mode_empty_file_renders_nothing() -> None:
    formatted = _format(message("user", [text("Hi"), file("empty.txt")]))

    assert formatted.question == "Hi"
    assert [(w.code, w.section, w.turn) for w in formatted.warnings] == [("empty_file", "input", 0)]


def test_later_system_and_tool_turns_become_marked_assistant_turns() -> None:
    formatted = _format(
        message("system", "Rules."),
        message("user", "Hi"),
        message("system", "Be short."),
        message("tool", "42"),
        message("assistant", "It is 42."),
    )

    assert formatted.chat_prompt == [
        {"role": "system", "content": "Rules."},
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "@[System]:\nBe short."},
        {"role": "assistant", "content": "@[Tool]:\n42"},
        {"role": "assistant", "content": "It is 42."},
    ]
    assert formatted.question == (
        "@[System]:\nRules.\n\n@[User]:\nHi\n\n@[System]:\nBe short.\n\n"
        "@[Tool]:\n42\n\n@[Assistant]:\nIt is 42."
    )


def test_leading_system_messages_merge_into_one_entry_after_the_guidelines() -> None:
    formatted = _format(
        message("system", [text("One."), file("g.instructions.md"), text("Two.")]),
        message("system", [file("g.instructions.md")]),
        message("system", "Three."),
        message("user", "Hi"),
    )

    assert formatted.chat_prompt == [
        {
            "role": "system",
            "content": "[[ ## Guidelines ## ]]\n\n"
            '<file path="g.instructions.md">\nBe brief.\n</file>\n\nOne.\nTwo.\n\nThree.',
        },
        {"role": "user", "content": "Hi"},
    ]
    assert formatted.question == (
        "@[System]:\nOne.\n<Attached: g.instructions.md>\nTwo.\n\n"
        "@[System]:\nThree.\n\n@[User]:\nHi"
    )


def test_chat_prompt_has_no_system_entry_when_there_is_nothing_to_put_in_it() -> None:
    formatted = _format(message("user", "Hi"), message("assistant", "Yo"))

    assert formatted.chat_prompt == [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Yo"},
    ]


def test_guidelines_hold_each_file_once_in_order_of_first_reference() -> None:
    files = MappingFiles(
        {"b.instructions.md": "B", "docs/a.instructions.md": "A\r\n", "a.instructions.md": "root A"}
    )
    case = make_case(
        message("user", [file("docs/a.instructions.md"), file("b.instructions.md")]),
        message("user", [file("/docs/a.instructions.md"), file("a.instructions.md"), text("Hi")]),
    )

    formatted = format_case(case, eval_path="eval.yaml", files=files)

    assert formatted.guidelines == (
        '<file path="a.instructions.md">\nA\n</file>\n\n'
        '<file path="b.instructions.md">\nB\n</file>\n\n'
        '<file path="a.instructions.md">\nroot A\n</file>'
    )
    assert "root A" not in formatted.question


def test_unknown_block_types_are_ignored_with_a_warning() -> None:
    formatted = _format(
        message("user", "Hi"),
        message("user", [{"type": "image", "value": "cat.png"}, text("There")]),
    )

    assert formatted.question == "@[User]:\nHi\n\n@[User]:\nThere"
    assert formatted.warnings[0].code == "unknown_block_type"
    assert (formatted.warnings[0].section, formatted.warnings[0].turn) == ("input", 1)
    assert formatted.warnings[0].message == (
        'Case "case-1", input message 2: block type "image" is not formatted; '
        "it is kept in the YAML but left out of the prompt."
    )


def test_turns_hold_the_visible_turns_with_guideline_refs() -> None:
    formatted = _format(
        message("system", [file("g.instructions.md")]),
        message("user", [text("Hi"), file("g.instructions.md")]),
        message("assistant", "Yo"),
    )

    assert formatted.turns == (("user", "Hi\n<Attached: g.instructions.md>"), ("assistant", "Yo"))


def test_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="Unknown formatting mode"):
        _format(message("user", "Hi"), mode="html")  # type: ignore[arg-type]

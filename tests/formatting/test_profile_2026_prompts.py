"""Segments, rendering, question, `chat_prompt` and `system_message` of the AgentV 2026 profile,
byte for byte in both modes (docs/formatting.md, "The AgentV 2026 profile", steps 1-5)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evals_app.formatting.profile_2026 import FormattedTest, format_tests_2026
from evals_app.formatting.workspace_files import MappingFiles

EVAL_PATH = "evals/coding/review.eval.yaml"
CHECKOUT = "/home/ada/agentv-repo"
FILES = {
    "evals/coding/coding-guidelines.instructions.md": "Prefer small functions.\n",
    "src/app.js": "let a = 1;\n",
    "evals/empty.md": "  \n",
    "notes.md": "Top-level notes.\n",
}


def user(content: Any) -> dict[str, Any]:
    return {"role": "user", "content": content}


def system(content: Any) -> dict[str, Any]:
    return {"role": "system", "content": content}


def file(value: str) -> dict[str, str]:
    return {"type": "file", "value": value}


def text(value: str) -> dict[str, str]:
    return {"type": "text", "value": value}


def formatted(
    input_value: Any, mode: str = "lm", *, checkout: str = CHECKOUT, **test: Any
) -> FormattedTest:
    document = {"id": "case-1", "criteria": "Answers.", "vars": {"input": input_value}, **test}
    [result] = format_tests_2026(
        document,
        {"prompts": ["{{ input }}"]},
        eval_path=EVAL_PATH,
        files=MappingFiles(FILES),
        mode=mode,  # type: ignore[arg-type]
        checkout_folder=checkout,
    )
    return result


@dataclass(frozen=True)
class Example:
    name: str
    input: Any
    question: str
    chat_prompt: list[dict[str, str]] | None
    system_message: str | None
    reason: str
    agent_question: str | None = None  # when it differs from lm mode
    agent_chat_prompt: list[dict[str, str]] | None = field(default=None)


GUIDELINE_LM = '<file path="coding-guidelines.instructions.md">\nPrefer small functions.\n</file>'
GUIDELINE_AGENT = f'<file: path="{CHECKOUT}/evals/coding/coding-guidelines.instructions.md">'

EXAMPLES = [
    Example(
        "system-and-user",
        [system("You are a helpful assistant."), user("What is 2+2?")],
        "@[System]:\nYou are a helpful assistant.\n\n@[User]:\nWhat is 2+2?",
        [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "What is 2+2?"},
        ],
        "You are a helpful assistant.",
        "2 turns with visible content",
    ),
    Example(
        # No guidelines: an *.instructions.md file is an ordinary file, so two turns are visible.
        "instructions-file-is-ordinary",
        [system([file("coding-guidelines.instructions.md")]), user("Please review this code.")],
        f"@[System]:\n{GUIDELINE_LM}\n\n@[User]:\nPlease review this code.",
        [
            {"role": "system", "content": GUIDELINE_LM},
            {"role": "user", "content": "Please review this code."},
        ],
        GUIDELINE_LM,
        "2 turns with visible content",
        agent_question=f"@[System]:\n{GUIDELINE_AGENT}\n\n@[User]:\nPlease review this code.",
        agent_chat_prompt=[
            {"role": "system", "content": GUIDELINE_AGENT},
            {"role": "user", "content": "Please review this code."},
        ],
    ),
    Example(
        "single-user-flat-and-stripped",
        user(["  Review this:  ", file("/src/app.js")]),
        'Review this:\n\n<file path="src/app.js">\nlet a = 1;\n</file>',
        None,
        None,
        "only one turn has visible content",
        agent_question=f'Review this:\n\n<file: path="{CHECKOUT}/src/app.js">',
    ),
    Example(
        "text-as-written-with-markers",
        [user("  Hello  "), {"role": "assistant", "content": "Hi!\n"}, user("Bye")],
        "@[User]:\n  Hello  \n\n@[Assistant]:\nHi!\n\n\n@[User]:\nBye",
        [
            {"role": "user", "content": "  Hello  "},
            {"role": "assistant", "content": "Hi!\n"},
            {"role": "user", "content": "Bye"},
        ],
        None,
        "assistant turn present",
    ),
    Example(
        "mapping-content-is-json",
        {"ticket": 42, "tags": ["a"], "note": "ü"},
        '{\n  "ticket": 42,\n  "tags": [\n    "a"\n  ],\n  "note": "ü"\n}',
        None,
        None,
        "only one turn has visible content",
    ),
    Example(
        "system-message-without-markers",
        [system("Be terse."), user("   ")],
        "Be terse.",
        None,
        "Be terse.",
        "only one turn has visible content",
    ),
    Example(
        "tool-and-late-system-become-assistant-with-markers",
        [system("S"), user("U"), {"role": "tool", "content": "   "}, system("late")],
        "@[System]:\nS\n\n@[User]:\nU\n\n@[System]:\nlate",
        [
            {"role": "system", "content": "S"},
            {"role": "user", "content": "U"},
            {"role": "assistant", "content": "@[Tool]:"},
            {"role": "assistant", "content": "@[System]:\nlate"},
        ],
        "S",
        "tool turn present",
    ),
    Example(
        "empty-file-lm-nothing-agent-reference",
        [user(["Look:", file("../empty.md")]), user("Then this.")],
        "@[User]:\nLook:\n\n@[User]:\nThen this.",
        [{"role": "user", "content": "Look:"}, {"role": "user", "content": "Then this."}],
        None,
        "2 turns with visible content",
        agent_question=(
            f'@[User]:\nLook:\n<file: path="{CHECKOUT}/evals/empty.md">\n\n@[User]:\nThen this.'
        ),
        agent_chat_prompt=[
            {"role": "user", "content": f'Look:\n<file: path="{CHECKOUT}/evals/empty.md">'},
            {"role": "user", "content": "Then this."},
        ],
    ),
    Example(
        "dot-dot-paths-shown-as-written",
        user([file("../../notes.md")]),
        '<file path="../../notes.md">\nTop-level notes.\n</file>',
        None,
        None,
        "only one turn has visible content",
        agent_question=f'<file: path="{CHECKOUT}/notes.md">',
    ),
    Example(
        "string-that-is-a-json-chat-array",
        '[{"role": "system", "content": "S"}, {"role": "user", "content": "U"}]',
        "@[System]:\nS\n\n@[User]:\nU",
        [{"role": "system", "content": "S"}, {"role": "user", "content": "U"}],
        "S",
        "2 turns with visible content",
    ),
    Example(
        "blank-bare-strings-dropped-blank-text-blocks-kept",
        [user(["A", "   ", text("  "), "B"]), {"role": "assistant", "content": "C"}],
        "@[User]:\nA\n  \nB\n\n@[Assistant]:\nC",
        [{"role": "user", "content": "A\n  \nB"}, {"role": "assistant", "content": "C"}],
        None,
        "assistant turn present",
    ),
]


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.name for example in EXAMPLES])
@pytest.mark.parametrize("mode", ["lm", "agent"])
def test_examples_byte_for_byte(example: Example, mode: str) -> None:
    result = formatted(example.input, mode)
    agent = mode == "agent"
    question = (
        example.agent_question if agent and example.agent_question is not None else example.question
    )
    chat = (
        example.agent_chat_prompt
        if agent and example.agent_chat_prompt is not None
        else example.chat_prompt
    )
    assert result.question == question
    assert result.chat_prompt == chat
    assert result.reason == example.reason
    assert result.role_markers is (chat is not None)
    expected_system = example.system_message
    if agent and example.system_message == GUIDELINE_LM:
        expected_system = GUIDELINE_AGENT
    assert result.system_message == expected_system


def test_agent_paths_without_a_checkout_folder_start_at_slash() -> None:
    result = formatted(user([file("src/app.js")]), "agent", checkout="")
    assert result.question == '<file: path="/src/app.js">'


def test_a_file_protocol_block_is_not_found_and_dropped() -> None:
    result = formatted(user(["See", file("file://src/app.js")]))
    assert result.question == "See"
    [warning] = result.warnings
    assert warning.code == "missing_file"
    assert '"file://src/app.js"' in warning.message


def test_file_protocol_inside_text_stays_text() -> None:
    assert formatted(user("Read file://src/app.js")).question == "Read file://src/app.js"


def test_an_image_block_is_a_note_not_text() -> None:
    result = formatted(user(["Describe:", {"type": "image", "value": "img/cat.png"}]))
    assert result.question == "Describe:"
    assert result.warnings == ()
    [note] = result.notes
    assert note.code == "image_not_rendered"
    assert note.turn == 0


def test_input_files_with_string_input_become_file_blocks_then_text() -> None:
    document_input = "Summarise the file."
    result = formatted(document_input, input_files=["src/app.js"])
    assert result.question == '<file path="src/app.js">\nlet a = 1;\n</file>\n\nSummarise the file.'


def test_input_files_with_message_input_are_ignored_with_a_warning() -> None:
    result = formatted([user("Hi")], input_files=["src/app.js"])
    assert result.question == "Hi"
    assert [warning.code for warning in result.warnings] == ["input_files_ignored"]


def test_suite_input_files_apply_when_the_test_has_none() -> None:
    [result] = format_tests_2026(
        {"id": "t", "vars": {"input": "Q"}},
        {"prompts": ["{{ input }}"], "input_files": ["src/app.js"]},
        eval_path=EVAL_PATH,
        files=MappingFiles(FILES),
    )
    assert result.question == '<file path="src/app.js">\nlet a = 1;\n</file>\n\nQ'


def test_a_mapping_with_role_is_one_message() -> None:
    assert formatted({"role": "system", "content": "Only system."}).system_message == "Only system."


def test_no_input_is_a_warning() -> None:
    document = {"id": "t", "criteria": "Answers."}
    [result] = format_tests_2026(document, {}, eval_path=EVAL_PATH, files=MappingFiles({}))
    assert result.question == ""
    assert [warning.code for warning in result.warnings] == ["no_input"]


def test_a_case_in_another_file_resolves_from_that_files_folder() -> None:
    [result] = format_tests_2026(
        {"id": "t", "vars": {"input": [user([file("../empty.md"), file("app.js")])]}},
        {"prompts": ["{{ input }}"]},
        eval_path="src/cases.yaml",
        files=MappingFiles(FILES),
    )
    assert result.question == '<file path="app.js">\nlet a = 1;\n</file>'


ROLES = st.sampled_from(["system", "user", "assistant", "tool"])
CONTENTS = st.sampled_from(["", "  ", "Hello", "  padded  ", "x\ny"])


@given(
    st.lists(st.tuples(ROLES, CONTENTS), min_size=1, max_size=5), st.sampled_from(["lm", "agent"])
)
def test_markers_iff_assistant_or_tool_or_several_visible_messages(
    messages: list[tuple[str, str]], mode: str
) -> None:
    result = formatted([{"role": role, "content": content} for role, content in messages], mode)
    visible = sum(1 for _, content in messages if content.strip())
    expected = any(role in ("assistant", "tool") for role, _ in messages) or visible > 1
    assert result.role_markers is expected
    if not expected:
        assert result.chat_prompt is None
        assert result.question == "\n\n".join(c.strip() for _, c in messages if c.strip())
    else:
        # Markers keep the order of the visible messages.
        markers = [line for line in result.question.split("\n") if line.startswith("@[")]
        assert markers == [
            f"@[{role.capitalize()}]:" for role, content in messages if content.strip()
        ]

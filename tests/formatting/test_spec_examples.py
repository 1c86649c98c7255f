"""The six examples of the AgentV 2025 profile (docs/formatting.md), byte for byte (`lm`
mode, default guideline patterns)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from evals_app.formatting.profile_2025.formatter import FormattedCase, Mode, format_case
from evals_app.formatting.workspace_files import MappingFiles
from tests.formatting.factories import file, make_case, message, text

EVAL_PATH = "evals/coding/review.yaml"
FILES = {
    "evals/coding/coding-guidelines.instructions.md": "Prefer small functions.\n",
    "prompts/js.instructions.md": "Use const where you can.\n",
    "src/app.js": "let a = 1;\n",
    "g.instructions.md": "Be brief.\n",
}


@dataclass(frozen=True)
class Example:
    name: str
    messages: list[dict[str, Any]]
    question: str
    chat_prompt: list[dict[str, str]] | None
    guidelines: str = ""
    reason: str = ""
    # The question in agent mode when it differs from lm mode.
    agent_question: str | None = None
    agent_chat_prompt: list[dict[str, str]] | None = field(default=None)


EXAMPLES = [
    Example(
        name="1-system-and-user",
        messages=[
            message("system", "You are a helpful assistant."),
            message("user", "What is 2+2?"),
        ],
        question="@[System]:\nYou are a helpful assistant.\n\n@[User]:\nWhat is 2+2?",
        chat_prompt=[
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "What is 2+2?"},
        ],
        reason="2 turns with visible content",
    ),
    Example(
        name="2-guideline-only-system",
        messages=[
            message("system", [file("coding-guidelines.instructions.md")]),
            message("user", "Please review this code."),
        ],
        question="Please review this code.",
        chat_prompt=None,
        guidelines=(
            '<file path="coding-guidelines.instructions.md">\nPrefer small functions.\n</file>'
        ),
        reason="only one turn has visible content",
    ),
    Example(
        name="3-multi-turn-debugging",
        messages=[
            message("system", "You are a debugging expert."),
            message("user", "I have a bug in my code."),
            message("assistant", "Can you share the code?"),
            message("user", "Here it is: [code snippet]"),
        ],
        question=(
            "@[System]:\nYou are a debugging expert.\n\n"
            "@[User]:\nI have a bug in my code.\n\n"
            "@[Assistant]:\nCan you share the code?\n\n"
            "@[User]:\nHere it is: [code snippet]"
        ),
        chat_prompt=[
            {"role": "system", "content": "You are a debugging expert."},
            {"role": "user", "content": "I have a bug in my code."},
            {"role": "assistant", "content": "Can you share the code?"},
            {"role": "user", "content": "Here it is: [code snippet]"},
        ],
        reason="assistant turn present",
    ),
    Example(
        name="4-guideline-and-file-in-user-turn",
        messages=[
            message("system", "You review code."),
            message(
                "user",
                [text("Review this:"), file("prompts/js.instructions.md"), file("src/app.js")],
            ),
        ],
        question=(
            "@[System]:\nYou review code.\n\n"
            "@[User]:\nReview this:\n<Attached: prompts/js.instructions.md>\n"
            '<file path="src/app.js">\nlet a = 1;\n</file>'
        ),
        chat_prompt=[
            {
                "role": "system",
                "content": "[[ ## Guidelines ## ]]\n\n"
                '<file path="js.instructions.md">\nUse const where you can.\n</file>\n\n'
                "You review code.",
            },
            {
                "role": "user",
                "content": 'Review this:\n<file path="src/app.js">\nlet a = 1;\n</file>',
            },
        ],
        guidelines='<file path="js.instructions.md">\nUse const where you can.\n</file>',
        reason="2 turns with visible content",
        agent_question=(
            "@[System]:\nYou review code.\n\n"
            "@[User]:\nReview this:\n<Attached: prompts/js.instructions.md>\n"
            '<file: path="src/app.js">'
        ),
        agent_chat_prompt=[
            {
                "role": "system",
                "content": "[[ ## Guidelines ## ]]\n\n"
                '<file path="js.instructions.md">\nUse const where you can.\n</file>\n\n'
                "You review code.",
            },
            {"role": "user", "content": 'Review this:\n<file: path="src/app.js">'},
        ],
    ),
    Example(
        name="5-flat-with-guideline-ref",
        messages=[message("user", [text("Check this"), file("g.instructions.md")])],
        question="Check this\n\n<Attached: g.instructions.md>",
        chat_prompt=None,
        guidelines='<file path="g.instructions.md">\nBe brief.\n</file>',
        reason="only one turn has visible content",
    ),
    Example(
        name="6-guideline-only-turn-left-out",
        messages=[
            message("user", "Hi"),
            message("user", [file("g.instructions.md")]),
            message("assistant", "Yo"),
        ],
        question="@[User]:\nHi\n\n@[Assistant]:\nYo",
        chat_prompt=[
            {
                "role": "system",
                "content": "[[ ## Guidelines ## ]]\n\n"
                '<file path="g.instructions.md">\nBe brief.\n</file>',
            },
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": "Yo"},
        ],
        guidelines='<file path="g.instructions.md">\nBe brief.\n</file>',
        reason="assistant turn present",
    ),
]


def _format(example: Example, mode: Mode) -> FormattedCase:
    case = make_case(*example.messages)
    return format_case(case, eval_path=EVAL_PATH, files=MappingFiles(FILES), mode=mode)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda example: example.name)
def test_lm_mode_matches_the_spec_example(example: Example) -> None:
    formatted = _format(example, "lm")

    assert formatted.question == example.question
    assert formatted.chat_prompt == example.chat_prompt
    assert formatted.guidelines == example.guidelines
    assert formatted.role_markers is (example.chat_prompt is not None)
    assert formatted.reason == example.reason
    assert formatted.warnings == ()


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda example: example.name)
def test_agent_mode_matches_the_spec_example(example: Example) -> None:
    formatted = _format(example, "agent")

    assert formatted.question == (example.agent_question or example.question)
    expected_chat_prompt = example.agent_chat_prompt or example.chat_prompt
    assert formatted.chat_prompt == expected_chat_prompt
    assert formatted.guidelines == example.guidelines
    assert formatted.reason == example.reason
    assert formatted.warnings == ()


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda example: example.name)
def test_judge_sees_the_same_question_as_the_candidate(example: Example) -> None:
    formatted = _format(example, "lm")

    assert f"[[ ## question ## ]]\n{example.question}\n\n" in formatted.evaluator_prompt()

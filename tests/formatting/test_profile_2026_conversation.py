"""Conversation tests of the AgentV 2026 profile: the chat messages at each turn
(docs/formatting.md, "The AgentV 2026 profile", step 7)."""

from __future__ import annotations

from typing import Any

from evals_app.formatting.profile_2026 import FormattedTest, format_tests_2026
from evals_app.formatting.workspace_files import MappingFiles


def conversation(
    input_messages: list[dict[str, Any]], turns: list[dict[str, Any]], **test: Any
) -> FormattedTest:
    document = {
        "id": "chat",
        "mode": "conversation",
        "vars": {"input": input_messages},
        "turns": turns,
        **test,
    }
    [result] = format_tests_2026(
        document,
        {"prompts": ["{{ input }}"]},
        eval_path="evals/c.yaml",
        files=MappingFiles({"evals/a.md": "A"}),
    )
    return result


SYSTEM = {"role": "system", "content": "You are a shop assistant."}
TURNS = [
    {"input": "Do you sell tea?", "expected_output": "Yes, green and black."},
    {"input": {"order": "green", "count": 2}, "assert": ["Confirms the order"]},
    {"input": "Thanks"},
]


def test_each_turn_gets_the_history_with_stand_in_answers() -> None:
    result = conversation([SYSTEM], TURNS)
    assert result.turns is not None
    assert [turn.chat_prompt for turn in result.turns] == [
        [
            {"role": "system", "content": "You are a shop assistant."},
            {"role": "user", "content": "Do you sell tea?"},
        ],
        [
            {"role": "system", "content": "You are a shop assistant."},
            {"role": "user", "content": "Do you sell tea?"},
            {"role": "assistant", "content": "Yes, green and black."},
            {"role": "user", "content": '{"order":"green","count":2}'},
        ],
        [
            {"role": "system", "content": "You are a shop assistant."},
            {"role": "user", "content": "Do you sell tea?"},
            {"role": "assistant", "content": "Yes, green and black."},
            {"role": "user", "content": '{"order":"green","count":2}'},
            {"role": "assistant", "content": "<model answer to turn 2>"},
            {"role": "user", "content": "Thanks"},
        ],
    ]
    assert [turn.stand_ins for turn in result.turns] == [(), (1,), (1, 2)]


def test_window_size_keeps_system_messages_and_the_last_two_n_others() -> None:
    result = conversation([SYSTEM], TURNS, window_size=1)
    assert result.turns is not None
    assert result.turns[2].chat_prompt == [
        {"role": "system", "content": "You are a shop assistant."},
        {"role": "assistant", "content": "<model answer to turn 2>"},
        {"role": "user", "content": "Thanks"},
    ]


def test_files_are_not_rendered_in_turns_structured_content_is_json() -> None:
    content = [{"type": "file", "value": "a.md"}, "Hi"]
    result = conversation([{"role": "user", "content": content}], [{"input": "Next"}])
    assert result.turns is not None
    assert result.turns[0].chat_prompt[0] == {
        "role": "user",
        "content": '[{"type":"file","value":"a.md"},"Hi"]',
    }
    # The test's own question still renders its files.
    assert result.question.startswith('<file path="a.md">\nA\n</file>')


def test_a_turns_asserts_have_a_judge_prompt() -> None:
    result = conversation([SYSTEM], TURNS)
    assert result.turns is not None
    assert [len(turn.judges) for turn in result.turns] == [0, 1, 0]
    prompt = result.turns[1].judges[0].prompt or ""
    assert "- [rubric-1] (REQUIRED): Confirms the order" in prompt
    assert result.graded is True


def test_a_structured_expected_output_stands_in_as_json() -> None:
    turns = [{"input": "A", "expected_output": {"answer": 1}}, {"input": "B"}]
    result = conversation([SYSTEM], turns)
    assert result.turns is not None
    assert result.turns[1].chat_prompt[2] == {"role": "assistant", "content": '{"answer":1}'}
    assert result.turns[0].as_json() == {
        "chat_prompt": [
            {"role": "system", "content": "You are a shop assistant."},
            {"role": "user", "content": "A"},
        ]
    }

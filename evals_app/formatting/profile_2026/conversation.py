"""Conversation tests (`mode: conversation`, `turns`): the chat messages the model receives at
each turn (docs/formatting.md, "The AgentV 2026 profile", step 7).

At turn k the model gets plain chat messages, no markers and no files rendered: the test's
input messages, then each earlier turn's input and the model's answer to it, then turn k's
input. The answers are known only when AgentV runs, so the preview puts each earlier turn's
`expected_output` in their place, or `<model answer to turn N>` when it has none.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from evals_app.formatting.case_input import MessageInput
from evals_app.formatting.profile_2026.judge import AssertJudge, JudgeInputs, judge_prompts
from evals_app.formatting.workspace_files import FileSource

from .judge import Warn


@dataclass(frozen=True)
class FormattedTurn:
    """One turn: the chat messages sent, which earlier answers are stand-ins, and the judge
    prompts of the turn's asserts."""

    chat_prompt: list[dict[str, str]]
    stand_ins: tuple[int, ...]
    judges: tuple[AssertJudge, ...]

    def as_json(self) -> dict[str, Any]:
        """The turn as `formatted.jsonl` writes it."""
        return {"chat_prompt": self.chat_prompt}


def compact_json(value: Any) -> str:
    """JSON.stringify(value): no spaces, non-ASCII kept."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def as_chat_text(value: Any) -> str:
    """A content or a turn's input as chat text: itself when text, else its JSON text."""
    if value is None:
        return ""
    return value if isinstance(value, str) else compact_json(value)


def model_answer_placeholder(turn_number: int) -> str:
    """What stands for the model's answer to a turn without an expected output."""
    return f"<model answer to turn {turn_number}>"


def windowed(history: Sequence[dict[str, str]], window_size: Any) -> list[dict[str, str]]:
    """`window_size: n` keeps the system messages and the last 2n others."""
    if not isinstance(window_size, int) or isinstance(window_size, bool) or window_size <= 0:
        return list(history)
    others = [message for message in history if message["role"] != "system"]
    return [message for message in history if message["role"] == "system"] + others[
        -window_size * 2 :
    ]


def format_turns(
    test: dict[Any, Any],
    messages: Sequence[MessageInput],
    *,
    candidate_answer: str,
    eval_path: str,
    files: FileSource,
    warn: Warn,
) -> tuple[FormattedTurn, ...]:
    """The turns of a conversation test, in order."""
    turns = test.get("turns")
    if not isinstance(turns, list):
        return ()
    history = [
        {"role": message.role, "content": as_chat_text(message.content)} for message in messages
    ]
    formatted: list[FormattedTurn] = []
    stand_ins: list[int] = []
    for index, turn in enumerate(turns):
        turn = turn if isinstance(turn, dict) else {}
        criteria = turn.get("criteria")
        history.append({"role": "user", "content": as_chat_text(turn.get("input"))})
        chat = windowed(history, test.get("window_size"))
        asserts = turn.get("assert")
        expected = turn.get("expected_output")
        inputs = JudgeInputs(
            question="\n\n".join(f"{message['role']}: {message['content']}" for message in chat),
            criteria=criteria if isinstance(criteria, str) else "",
            reference_answer="" if expected is None else as_chat_text(expected),
            candidate_answer=candidate_answer,
        )
        judges = judge_prompts(
            asserts if isinstance(asserts, list) else [asserts] if asserts is not None else [],
            inputs,
            eval_path=eval_path,
            files=files,
            warn=warn,
        )
        formatted.append(FormattedTurn(chat, tuple(stand_ins), tuple(judges)))
        if expected is None:
            history.append({"role": "assistant", "content": model_answer_placeholder(index + 1)})
        else:
            history.append({"role": "assistant", "content": as_chat_text(expected)})
        stand_ins.append(index + 1)
    return tuple(formatted)

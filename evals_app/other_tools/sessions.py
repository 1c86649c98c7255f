"""Agent sessions as tests (docs/imports.md, "Sessions"): a session is read into AgentV messages;
each user turn may become a test whose input is the conversation up to that turn (tool calls
and results included), whose expected output is the answer the session gave, and whose
trajectory asserts are the tools the agent used to give it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .base import REFERENCE_RUBRIC, Mapped, Reading, Row, SourceError, SourceFiles, TestBuilder
from .messages import text_of


@dataclass
class Session:
    """A session read: its messages, the line each came from, and what was kept aside."""

    path: str
    session_id: str | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    # The indexes in `messages` of the user's turns (not tool results).
    user_turns: list[int] = field(default_factory=list)
    unsupported: list[dict[str, Any]] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    last_line: int = 0

    def add(self, message: dict[str, Any], line: int, *, turn: bool = False) -> None:
        """Append a message read at `line`; `turn` for a message the user typed."""
        if turn:
            self.user_turns.append(len(self.messages))
        self.messages.append(message)
        self.lines.append(line)

    def keep_aside(self, field_name: str, value: Any, reason: str, line: int) -> None:
        """Something of the session with no AgentV equivalent (a reasoning block, a subagent)."""
        self.unsupported.append(
            {"field": f"line {line}: {field_name}", "value": value, "reason": reason}
        )

    def span(self, turn: int) -> list[dict[str, Any]]:
        """The messages answering user turn `turn` (1-based): up to the next user turn."""
        start = self.user_turns[turn - 1] + 1
        end = self.user_turns[turn] if turn < len(self.user_turns) else len(self.messages)
        return self.messages[start:end]

    def answer(self, turn: int) -> str | None:
        """The answer the session gave at `turn`: its last assistant text, if any."""
        texts = [
            text_of(message.get("content"))
            for message in self.span(turn)
            if message["role"] == "assistant" and text_of(message.get("content")).strip()
        ]
        return texts[-1] if texts else None

    def default_turn(self) -> int:
        """The last user turn the session answered (else its last user turn)."""
        for turn in range(len(self.user_turns), 0, -1):
            if self.answer(turn) is not None:
                return turn
        return len(self.user_turns)


def session_reading(session: Session) -> Reading:
    """One row per user turn of `session` (the engine keeps the chosen ones); a session with
    no user turn is refused, naming the file and its last line read."""
    if not session.user_turns:
        raise SourceError(
            "the session has no user turn to test at",
            file=session.path,
            line=session.last_line or 1,
        )
    default = session.default_turn()
    rows = [
        Row(
            session.path,
            turn,
            session,
            session.lines[index],
            {"turn": turn, "default": turn == default},
        )
        for turn, index in enumerate(session.user_turns, start=1)
    ]
    return Reading(rows)


def session_test(row: Row, source: str) -> Mapped:
    """The test at the row's turn."""
    session: Session = row.data
    turn = int(row.context["turn"])
    builder = TestBuilder(row, source)
    stem = session.session_id
    builder.set_id(f"{stem}-turn-{turn}" if stem else None, f"{_file_stem(row.file)}-turn-{turn}")
    builder.description = _first_line(
        text_of(session.messages[session.user_turns[turn - 1]].get("content"))
    )
    builder.vars["input"] = session.messages[: session.user_turns[turn - 1] + 1]
    answer = session.answer(turn)
    if answer is None:
        builder.warn(
            "turn", f"the session gave no answer at turn {turn}: the test has no expected output"
        )
    else:
        builder.vars["expected_output"] = answer
    used = Counter(
        call.get("tool")
        for message in session.span(turn)
        for call in message.get("tool_calls") or []
        if isinstance(call, dict) and isinstance(call.get("tool"), str)
    )
    for name in used:
        builder.asserts.append({"type": "trajectory:tool-used", "value": {"name": name, "min": 1}})
    if used and answer is not None:
        builder.asserts.append({"type": "llm-rubric", "value": REFERENCE_RUBRIC})
    builder.metadata["session"] = {
        **session.details,
        "turn": turn,
        "turns": len(session.user_turns),
    }
    if used:
        builder.metadata["session"]["tools_used"] = dict(used)
    for item in session.unsupported:
        builder.keep_unsupported(item["field"], item["value"], item["reason"])
    return builder.build()


def _first_line(text: str) -> str:
    line = text.strip().split("\n", 1)[0]
    return line[:117] + "…" if len(line) > 120 else line


def _file_stem(path: str) -> str:
    return path.rsplit("/", 1)[-1].split(".")[0] or "session"


class SessionSource(ABC):
    """What the agent session formats share: a file is one session, read by `read_file`, its
    chosen turn mapped to one test; a session reads no other file."""

    name = ""

    @abstractmethod
    def read_file(self, path: str, text: str) -> Session:
        """The session's messages (each format reads its own lines)."""

    def read(self, path: str, files: SourceFiles) -> Reading:
        return session_reading(self.read_file(path, files.get(path) or ""))

    def consumed(self, path: str, files: SourceFiles) -> set[str]:
        return set()

    def map(self, row: Row) -> Mapped:
        return session_test(row, self.name)

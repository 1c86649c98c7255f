"""Claude Code sessions (`~/.claude/projects/…/<uuid>.jsonl`): `user` and `assistant` lines whose
`message.content` holds `text`, `thinking`, `tool_use` and `tool_result` blocks, read as
AgentV's own transcript import reads them (docs/imports.md, "Sessions")."""

from __future__ import annotations

import json
from typing import Any

from .base import SourceError
from .records import first_lines, json_lines
from .sessions import Session, SessionSource

MESSAGE_TYPES = frozenset({"user", "assistant"})


class ClaudeCode(SessionSource):
    """Claude Code session files."""

    name = "claude-code"
    label = "Claude Code session"

    def detect(self, path: str, text: str) -> bool:
        for line in first_lines(text, 20):
            try:
                event = json.loads(line)
            except ValueError:
                return False
            if isinstance(event, dict) and event.get("type") in MESSAGE_TYPES:
                return isinstance(event.get("message"), dict) and (
                    "sessionId" in event or "uuid" in event
                )
        return False

    def read_file(self, path: str, text: str) -> Session:
        return read_session(path, text)


def read_session(path: str, text: str) -> Session:
    """The session's messages: tool results become `tool` messages after the call they answer,
    streamed parts of one assistant message are joined, subagents and thinking kept aside."""
    session = Session(path)
    last_id: Any = None
    for number, line in enumerate(json_lines(text.lstrip("\ufeff")), start=1):
        if not line.strip():
            continue
        session.last_line = number
        try:
            event = json.loads(line)
        except ValueError as error:
            raise SourceError(f"not valid JSON: {error}", file=path, line=number) from None
        if not isinstance(event, dict) or event.get("type") not in MESSAGE_TYPES:
            continue
        message = event.get("message")
        if not isinstance(message, dict):
            continue
        session.session_id = session.session_id or event.get("sessionId")
        if event.get("cwd") and "cwd" not in session.details:
            session.details["cwd"] = event["cwd"]
        if event.get("isSidechain"):
            session.keep_aside("sidechain", message, "a subagent's message (sidechain)", number)
            continue
        if event["type"] == "user":
            _user(session, message.get("content"), number)
            last_id = None
        else:
            if message.get("model") and "model" not in session.details:
                session.details["model"] = message["model"]
            last_id = _assistant(session, message, number, last_id)
    if session.session_id:
        session.details["id"] = session.session_id
    return session


def _user(session: Session, content: Any, line: int) -> None:
    if isinstance(content, str):
        session.add({"role": "user", "content": content}, line, turn=True)
        return
    texts = []
    for block in content if isinstance(content, list) else []:
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "tool_result":
            result: dict[str, Any] = {
                "role": "tool",
                "tool_call_id": block.get("tool_use_id"),
                "content": _result_text(block.get("content")),
            }
            if block.get("is_error"):
                result["is_error"] = True
            session.add(result, line)
        elif kind == "text":
            texts.append(str(block.get("text", "")))
        else:
            session.keep_aside(
                f"content ({kind})", block, "a user block AgentV does not read", line
            )
    if texts:
        session.add({"role": "user", "content": "".join(texts)}, line, turn=True)


def _assistant(session: Session, message: dict[str, Any], line: int, last_id: Any) -> Any:
    """Add the assistant message (or its next streamed part); returns its message id."""
    texts: list[str] = []
    calls: list[dict[str, Any]] = []
    content = message.get("content")
    if isinstance(content, str):
        texts.append(content)
    for block in content if isinstance(content, list) else []:
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text":
            texts.append(str(block.get("text", "")))
        elif kind == "tool_use":
            calls.append(
                {"id": block.get("id"), "tool": block.get("name"), "input": block.get("input")}
            )
        elif kind in ("thinking", "redacted_thinking"):
            session.keep_aside(kind, block, "reasoning is not part of an AgentV conversation", line)
        else:
            session.keep_aside(
                f"content ({kind})", block, "an assistant block AgentV does not read", line
            )
    message_id = message.get("id")
    previous = session.messages[-1] if session.messages else None
    if (
        message_id is not None
        and message_id == last_id
        and previous is not None
        and previous["role"] == "assistant"
    ):
        previous["content"] = str(previous.get("content", "")) + "".join(texts)
        if calls:
            previous.setdefault("tool_calls", []).extend(calls)
        return message_id
    if texts or calls:
        converted: dict[str, Any] = {"role": "assistant", "content": "".join(texts)}
        if calls:
            converted["tool_calls"] = calls
        session.add(converted, line)
    return message_id


def _result_text(content: Any) -> Any:
    if isinstance(content, list):
        texts = [
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and part.get("type") == "text"
        ]
        if len(texts) == len(content):
            return "".join(texts)
    return content if content is not None else ""

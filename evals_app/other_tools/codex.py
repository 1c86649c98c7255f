"""Codex rollouts (`~/.codex/sessions/…/rollout-*.jsonl`): `{timestamp, type, payload}` lines;
`response_item` messages (developer, user, assistant), `function_call` and
`function_call_output` paired by `call_id`, `reasoning` kept aside (docs/imports.md)."""

from __future__ import annotations

import json
from typing import Any

from .base import SourceError
from .messages import parsed_arguments
from .records import first_lines, json_lines
from .sessions import Session, SessionSource

LINE_TYPES = frozenset({"session_meta", "response_item", "turn_context", "event_msg", "compacted"})
ROLES = {"developer": "system", "system": "system", "user": "user", "assistant": "assistant"}
CALLS = ("function_call", "custom_tool_call", "local_shell_call")
OUTPUTS = ("function_call_output", "custom_tool_call_output")


class Codex(SessionSource):
    """Codex session rollouts."""

    name = "codex"
    label = "Codex session"

    def detect(self, path: str, text: str) -> bool:
        for line in first_lines(text, 5):
            try:
                event = json.loads(line)
            except ValueError:
                return False
            if isinstance(event, dict) and event.get("type") in LINE_TYPES and "payload" in event:
                return True
        return False

    def read_file(self, path: str, text: str) -> Session:
        return read_rollout(path, text)


def read_rollout(path: str, text: str) -> Session:
    """The rollout's messages; `event_msg` lines repeat the response items and are skipped."""
    session = Session(path)
    for number, line in enumerate(json_lines(text.lstrip("\ufeff")), start=1):
        if not line.strip():
            continue
        session.last_line = number
        try:
            event = json.loads(line)
        except ValueError as error:
            raise SourceError(f"not valid JSON: {error}", file=path, line=number) from None
        payload = event.get("payload") if isinstance(event, dict) else None
        if not isinstance(payload, dict):
            continue
        if event.get("type") == "session_meta":
            session.session_id = payload.get("id")
            for key in ("id", "cwd", "cli_version"):
                if payload.get(key):
                    session.details[key] = payload[key]
        elif event.get("type") == "turn_context" and payload.get("model"):
            session.details.setdefault("model", payload["model"])
        elif event.get("type") == "response_item":
            _item(session, payload, number)
    return session


def _item(session: Session, item: dict[str, Any], line: int) -> None:
    kind = item.get("type")
    if kind == "message":
        role = ROLES.get(str(item.get("role")))
        if role is None:
            session.keep_aside(
                "message", item, f"the role {item.get('role')!r} has no AgentV equivalent", line
            )
            return
        session.add(
            {"role": role, "content": _text(item.get("content"))}, line, turn=role == "user"
        )
    elif kind in CALLS:
        arguments = item.get("arguments", item.get("input", item.get("action")))
        call = {
            "id": item.get("call_id"),
            "tool": item.get("name") or kind,
            "input": parsed_arguments(arguments),
        }
        previous = session.messages[-1] if session.messages else None
        if previous is not None and previous["role"] == "assistant":
            previous.setdefault("tool_calls", []).append(call)
        else:
            session.add({"role": "assistant", "content": "", "tool_calls": [call]}, line)
    elif kind in OUTPUTS:
        output = item.get("output")
        if isinstance(output, dict) and "content" in output:
            output = output["content"]
        session.add(
            {
                "role": "tool",
                "tool_call_id": item.get("call_id"),
                "content": output if output is not None else "",
            },
            line,
        )
    elif kind == "reasoning":
        session.keep_aside(
            "reasoning", item, "reasoning is not part of an AgentV conversation", line
        )
    else:
        session.keep_aside(str(kind), item, "a response item AgentV does not read", line)


def _text(content: Any) -> Any:
    if isinstance(content, list):
        texts = [
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and part.get("type") in ("input_text", "output_text", "text")
        ]
        if len(texts) == len(content):
            return "".join(texts)
    return content if content is not None else ""

"""AgentV messages as OpenAI chat messages, the shape promptfoo's chat prompts and chat JSONL
share (docs/exports.md, "Messages").

Text stays text; a file block becomes its text as AgentV's lm mode sends it; an image block an
`image_url` part; an expected answer's `tool_calls` (`{tool, input, output}`) an assistant
message with OpenAI `tool_calls` followed by one `tool` message per result.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import count
from typing import Any

from ...formatting.case_input import ROLES
from ...formatting.workspace_files import FileSource, resolve_file

# The keys of a message OpenAI's chat format has.
_MESSAGE_KEYS = frozenset({"role", "content", "name", "tool_calls", "tool_call_id"})


@dataclass
class MessageWriter:
    """Converts the messages of one suite. `warn(field, message)` records what a message loses;
    `lost` says whether anything was lost since it was last reset."""

    eval_path: str
    files: FileSource
    warn: Callable[[str, str], None]
    lost: bool = False
    _call_ids: Iterator[int] = field(default_factory=lambda: count(1))

    def messages(self, messages: list[dict[Any, Any]], field_name: str) -> list[dict[str, Any]]:
        """`messages` (AgentV's, at `field_name` of the test) as OpenAI chat messages."""
        converted: list[dict[str, Any]] = []
        for index, message in enumerate(messages):
            if message.get("role") in ROLES:
                converted.extend(self._message(message, f"{field_name}[{index}]"))
            else:
                self._lose(f"{field_name}[{index}]", "not a message (no known role); left out")
        return converted

    def text_or_messages(self, value: Any, role: str, field_name: str) -> list[dict[str, Any]]:
        """An input or expected output written as text, one message, or messages."""
        if value is None:
            return []
        if isinstance(value, list):
            if not all(isinstance(item, dict) for item in value):
                self._lose(field_name, "a list that is not of messages; left out")
            return self.messages([item for item in value if isinstance(item, dict)], field_name)
        if isinstance(value, dict) and "role" in value:
            return self.messages([value], field_name)
        return self.messages([{"role": role, "content": value}], field_name)

    def _lose(self, field_name: str, message: str) -> None:
        self.lost = True
        self.warn(field_name, message)

    def _message(self, message: dict[Any, Any], field_name: str) -> list[dict[str, Any]]:
        converted: dict[str, Any] = {"role": message["role"]}
        for key in ("name", "tool_call_id"):
            if isinstance(message.get(key), str):
                converted[key] = message[key]
        if message.get("content") is not None:
            content = self._content(message["content"], f"{field_name}.content")
            if content is not None:
                converted["content"] = content
        results: list[dict[str, Any]] = []
        calls = message.get("tool_calls")
        if isinstance(calls, list) and calls:
            converted["tool_calls"] = []
            for number, call in enumerate(calls):
                openai_call, result = self._tool_call(call, f"{field_name}.tool_calls[{number}]")
                if openai_call is not None:
                    converted["tool_calls"].append(openai_call)
                if result is not None:
                    results.append(result)
        for key in message:
            if key not in _MESSAGE_KEYS:
                self._lose(f"{field_name}.{key}", "chat messages have no such field; left out")
        return [converted, *results]

    def _tool_call(
        self, call: Any, field_name: str
    ) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        """An OpenAI tool call and its `tool` result message, from AgentV's
        `{tool, input, output}` (a call written in OpenAI's shape is kept as it is)."""
        if isinstance(call, dict) and isinstance(call.get("function"), dict):
            return call, None
        if not isinstance(call, dict) or not isinstance(call.get("tool"), str):
            self._lose(field_name, "a tool call without a `tool` name; left out")
            return None, None
        call_id = call.get("id") if isinstance(call.get("id"), str) else None
        call_id = call_id or f"call_{next(self._call_ids)}"
        arguments = call.get("input", {})
        openai_call = {
            "id": call_id,
            "type": "function",
            "function": {
                "name": call["tool"],
                "arguments": arguments if isinstance(arguments, str) else _json(arguments),
            },
        }
        for key in call:
            if key not in ("tool", "input", "output", "id"):
                self._lose(f"{field_name}.{key}", "OpenAI tool calls have no such field; left out")
        if "output" not in call:
            return openai_call, None
        output = call["output"]
        text = output if isinstance(output, str) else _json(output)
        return openai_call, {"role": "tool", "tool_call_id": call_id, "content": text}

    def _content(self, content: Any, field_name: str) -> Any:
        """Text, or a list of OpenAI content parts when an image is among them."""
        if isinstance(content, str):
            return content
        if not isinstance(content, list):
            # A mapping (or a number) is sent as its JSON text, as AgentV sends it.
            return json.dumps(content, ensure_ascii=False, indent=2, default=str)
        parts: list[dict[str, Any]] = []
        for index, item in enumerate(content):
            part = self._part(item, f"{field_name}[{index}]")
            if part is not None:
                parts.append(part)
        if all(part["type"] == "text" for part in parts):
            return "\n".join(part["text"] for part in parts)
        return parts

    def _part(self, item: Any, field_name: str) -> dict[str, Any] | None:
        if isinstance(item, str):
            return {"type": "text", "text": item}
        kind = item.get("type") if isinstance(item, dict) else None
        value = item.get("value") if isinstance(item, dict) else None
        if kind == "text":
            return {"type": "text", "text": value if isinstance(value, str) else _json(value)}
        if kind == "image" and isinstance(value, str):
            return {"type": "image_url", "image_url": {"url": value}}
        if kind == "file" and isinstance(value, str):
            resolution = resolve_file(value, self.eval_path, self.files)
            if resolution.file is None:
                self._lose(field_name, f'file "{resolution.display_path}" not found; left out')
                return None
            text = resolution.file.text.strip()
            if not text:
                return None
            # As AgentV's lm mode sends a file (docs/formatting.md).
            return {
                "type": "text",
                "text": f'<file path="{resolution.display_path}">\n{text}\n</file>',
            }
        self._lose(field_name, f"a `{kind}` block has no chat equivalent; left out")
        return None


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)

"""Chat messages of other tools as AgentV messages (docs/imports.md, "Messages").

A message is `{role, content}` with role system, user, assistant or tool. An assistant's tool
calls are `tool_calls: [{id, tool, input}]` (the shape of AgentV's own transcripts) and keep a
`content` (empty when the source had none: AgentV drops a message without content from a
test's input); a tool's answer is a `tool` message with its `tool_call_id`. Any other key of a
message is kept as it is.
"""

from __future__ import annotations

import json
from typing import Any

from .base import TestBuilder

ROLES = frozenset({"system", "user", "assistant", "tool"})
# Roles of other tools with an AgentV equivalent (OpenAI's `developer` is its system prompt).
ROLE_NAMES = {"developer": "system", "human": "user", "ai": "assistant", "function": "tool"}


def chat_messages(builder: TestBuilder, field: str, messages: Any) -> list[dict[str, Any]]:
    """`messages` (OpenAI, Hugging Face or Inspect chat messages) as AgentV messages; a
    message whose role has no AgentV equivalent is kept in `imported_unsupported`."""
    if isinstance(messages, str):
        return [{"role": "user", "content": messages}]
    if isinstance(messages, dict):
        messages = [messages]
    if not isinstance(messages, list):
        builder.keep_unsupported(field, messages, "not a list of chat messages")
        return []
    result = []
    index = -1
    for message in messages:
        index += 1
        if type(message) is dict and len(message) == 2:
            # Already an AgentV message (most rows of a chat dataset): kept as it is.
            role = message.get("role")
            if role in ROLES and type(message.get("content")) is str:
                result.append(message)
                continue
        where = f"{field}[{index}]"
        if not isinstance(message, dict):
            builder.keep_unsupported(where, message, "not a chat message")
            continue
        converted = chat_message(builder, where, message)
        if converted is not None:
            result.append(converted)
    return result


def chat_message(
    builder: TestBuilder, where: str, message: dict[str, Any]
) -> dict[str, Any] | None:
    """One message as AgentV writes it, or None (kept as unsupported) for an unknown role."""
    role = message.get("role")
    role = ROLE_NAMES.get(role, role) if isinstance(role, str) else role
    if role not in ROLES:
        builder.keep_unsupported(where, message, f"the role {role!r} has no AgentV equivalent")
        return None
    converted: dict[str, Any] = {"role": role}
    content = message.get("content")
    converted["content"] = _content(content) if content is not None else ""
    for key, value in message.items():
        if key in ("role", "content"):
            continue
        if key == "tool_calls" and isinstance(value, list):
            converted["tool_calls"] = [tool_call(call) for call in value]
        elif key == "function_call" and isinstance(value, dict):
            converted["tool_calls"] = [tool_call({"function": value})]
        else:
            converted[key] = value
    return converted


def tool_call(call: Any) -> Any:
    """An OpenAI (`{id, type, function: {name, arguments}}`) or Inspect (`{id, function,
    arguments}`) tool call as AgentV's `{id, tool, input}`; other shapes are kept as they are."""
    if not isinstance(call, dict):
        return call
    function = call.get("function")
    if isinstance(function, dict) and isinstance(function.get("name"), str):
        converted: dict[str, Any] = {}
        if "id" in call:
            converted["id"] = call["id"]
        converted["tool"] = function["name"]
        converted["input"] = parsed_arguments(function.get("arguments"))
        return converted
    if isinstance(function, str):
        converted = {"id": call["id"]} if "id" in call else {}
        converted["tool"] = function
        converted["input"] = parsed_arguments(call.get("arguments"))
        return converted
    return call


def parsed_arguments(arguments: Any) -> Any:
    """A tool call's arguments: the JSON object a string holds, else the value as it is."""
    if isinstance(arguments, str):
        try:
            return json.loads(arguments)
        except ValueError:
            return arguments
    return arguments


def _content(content: Any) -> Any:
    """OpenAI content parts (`{type: text, text}`) as AgentV's (`{type: text, value}`)."""
    if not isinstance(content, list):
        return content
    parts = []
    for part in content:
        if isinstance(part, dict) and part.get("type") in ("text", "input_text", "output_text"):
            rest = {k: v for k, v in part.items() if k not in ("type", "text")}
            parts.append({"type": "text", "value": part.get("text", ""), **rest})
        else:
            parts.append(part)
    return parts


def split_answer(messages: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], Any]:
    """The conversation before the last assistant message, and that message as an expected
    output: its text when it is only `{role, content}` with text, else the message in a list
    (nothing of it is lost). No final assistant message: all messages and None."""
    if not messages or messages[-1].get("role") != "assistant":
        return messages, None
    last = messages[-1]
    if set(last) == {"role", "content"} and isinstance(last["content"], str):
        return messages[:-1], last["content"]
    return messages[:-1], [last]


def text_of(content: Any) -> str:
    """The text of a message's content (its text parts joined), for previews and rubrics."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [
            part if isinstance(part, str) else str(part.get("value", ""))
            for part in content
            if isinstance(part, str) or (isinstance(part, dict) and part.get("type") == "text")
        ]
        return "\n".join(texts)
    if content is None:
        return ""
    return json.dumps(content, ensure_ascii=False)

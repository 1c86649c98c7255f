"""What the exports of LangSmith, Langfuse and Braintrust share: a record holds an input, an
expected output and metadata under each tool's own names (docs/imports.md)."""

from __future__ import annotations

import json
from typing import Any

from .base import TestBuilder, set_var
from .messages import chat_messages


def input_messages(builder: TestBuilder, field: str, value: Any) -> list[dict[str, Any]]:
    """An input as AgentV's `vars.input` messages: chat messages as they are (under
    `messages`, or a list of them); a mapping's keys as variables, and its one text (when it
    has exactly one) as the user's message; any other value as the user's message (a mapping
    as its JSON text, as AgentV sends structured content)."""
    if isinstance(value, dict) and isinstance(value.get("messages"), list):
        for key, item in value.items():
            if key != "messages":
                set_var(builder, key, item)
        return chat_messages(builder, f"{field}.messages", value["messages"])
    if (
        isinstance(value, list)
        and value
        and all(isinstance(item, dict) and "role" in item for item in value)
    ):
        return chat_messages(builder, field, value)
    if isinstance(value, dict):
        for key, item in value.items():
            set_var(builder, key, item)
        texts = [item for item in value.values() if isinstance(item, str)]
        content: Any = texts[0] if len(texts) == 1 else value
        return [{"role": "user", "content": content}]
    if isinstance(value, str):
        return [{"role": "user", "content": value}]
    return [{"role": "user", "content": json.dumps(value, ensure_ascii=False)}]


def expected_value(value: Any) -> Any:
    """An expected output: a mapping holding one value (`{"output": "..."}`) as that value."""
    if isinstance(value, dict) and len(value) == 1:
        return next(iter(value.values()))
    return value


def keep_rest(builder: TestBuilder, data: dict[str, Any], known: set[str]) -> None:
    for key, value in data.items():
        if key not in known:
            builder.keep_unsupported(key, value, "a field this import does not map")

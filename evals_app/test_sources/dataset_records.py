"""What the exports of LangSmith, Langfuse and Braintrust share: a record holds an input, an
expected output and metadata under each tool's own names (docs/imports.md)."""

from __future__ import annotations

from typing import Any

from .base import TestBuilder, set_var
from .messages import chat_messages


def input_messages(builder: TestBuilder, field: str, value: Any) -> Any:
    """An input as AgentV's `vars.input`: chat messages as messages (under `messages`, or a
    list of them); a mapping with one text as that text, the other keys as variables; any
    other mapping as it is (AgentV sends it as its JSON text)."""
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
        texts = [key for key, item in value.items() if isinstance(item, str)]
        if len(texts) == 1 and len(value) <= 3:
            for key, item in value.items():
                if key != texts[0]:
                    set_var(builder, key, item)
            return value[texts[0]]
    return value


def expected_value(value: Any) -> Any:
    """An expected output: a mapping holding one value (`{"output": "..."}`) as that value."""
    if isinstance(value, dict) and len(value) == 1:
        return next(iter(value.values()))
    return value


def keep_rest(builder: TestBuilder, data: dict[str, Any], known: set[str]) -> None:
    for key, value in data.items():
        if key not in known:
            builder.keep_unsupported(key, value, "a field this import does not map")

"""Chat datasets of OpenAI fine-tuning and Hugging Face: `{"messages": [{role, content}]}` a
line. Every message but the last assistant one is the input; that one the expected output."""

from __future__ import annotations

from typing import Any

from .base import Mapped, Row, TestBuilder, generated_id
from .messages import chat_messages, split_answer
from .row_sources import RowSource


class ChatJsonl(RowSource):
    """`messages` chat lines (docs/imports.md, "Chat datasets")."""

    name = "chat-jsonl"
    label = "Chat messages (OpenAI fine-tuning, Hugging Face)"

    def looks_like(self, record: dict[str, Any]) -> bool:
        messages = record.get("messages")
        return isinstance(messages, list) and all(
            isinstance(message, dict) and "role" in message for message in messages
        )

    def map(self, row: Row) -> Mapped:
        builder = TestBuilder(row, self.name)
        data = row.data
        builder.set_id(data.get("id"), generated_id(row.file, row.row))
        messages = chat_messages(builder, "messages", data.get("messages"))
        before, answer = split_answer(messages)
        builder.vars["input"] = before
        if answer is None:
            builder.warn("messages", "no final assistant message: the test has no expected output")
        else:
            builder.vars["expected_output"] = answer
        for key, value in data.items():
            if key in ("id", "messages"):
                continue
            # `tools`, `parallel_tool_calls` and the like describe the conversation: data
            # AgentV does not read, kept beside the test.
            builder.metadata[key] = value
        return builder.build()

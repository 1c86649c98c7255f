"""DeepEval datasets: `Golden` and `ConversationalGolden` records saved as JSON, JSON lines or
CSV (lists joined with `|`, tool lists with `;`, `turns` a JSON string)."""

from __future__ import annotations

import json
from typing import Any

from .base import Mapped, Row, TestBuilder, generated_id
from .messages import chat_messages, split_answer
from .records import csv_header
from .row_sources import RowSource

GOLDEN_KEYS = {"expected_output", "actual_output", "retrieval_context", "expected_tools"}
CONVERSATION_KEYS = {"scenario", "turns", "expected_outcome", "user_description"}
LIST_COLUMNS = ("context", "retrieval_context")
TOOL_COLUMNS = ("tools_called", "expected_tools")


class DeepEval(RowSource):
    """Goldens and conversational goldens (docs/imports.md, "DeepEval")."""

    name = "deepeval"
    label = "DeepEval goldens"
    reads_csv = True

    def looks_like(self, record: dict[str, Any]) -> bool:
        keys = set(record)
        if "scenario" in keys and ("turns" in keys or "expected_outcome" in keys):
            return True
        return "input" in keys and bool(GOLDEN_KEYS & keys)

    def detect(self, path: str, text: str) -> bool:
        if path.endswith(".csv"):
            header = set(csv_header(text))
            return ("input" in header and bool(GOLDEN_KEYS & header)) or "scenario" in header
        return super().detect(path, text)

    def map(self, row: Row) -> Mapped:
        builder = TestBuilder(row, self.name)
        data = _from_csv(row.data) if row.file.endswith(".csv") else dict(row.data)
        builder.set_id(data.get("id"), generated_id(row.file, row.row))
        if "scenario" in data or "turns" in data:
            self._conversation(builder, data)
        else:
            self._golden(builder, data)
        for key in ("context", "retrieval_context", "user_description", "comments"):
            if data.get(key) not in (None, "", []):
                builder.metadata[key] = data[key]
        if isinstance(data.get("additional_metadata"), dict):
            builder.metadata.update(data["additional_metadata"])
        if isinstance(data.get("custom_column_key_values"), dict):
            builder.metadata.update(data["custom_column_key_values"])
        known = {
            "id",
            "name",
            "input",
            "expected_output",
            "actual_output",
            "tools_called",
            "expected_tools",
            "scenario",
            "turns",
            "expected_outcome",
            "additional_metadata",
            "custom_column_key_values",
            "source_file",
            "context",
            "retrieval_context",
            "user_description",
            "comments",
        }
        for key, value in data.items():
            if key not in known and value not in (None, ""):
                builder.keep_unsupported(key, value, "a field this import does not map")
        return builder.build()

    def _golden(self, builder: TestBuilder, data: dict[str, Any]) -> None:
        if isinstance(data.get("name"), str) and data["name"]:
            builder.description = data["name"]
        builder.vars["input"] = chat_messages(builder, "input", data.get("input") or "")
        if data.get("expected_output") not in (None, ""):
            builder.vars["expected_output"] = data["expected_output"]
        if data.get("actual_output") not in (None, ""):
            builder.metadata["actual_output"] = data["actual_output"]
        if data.get("tools_called"):
            builder.metadata["tools_called"] = data["tools_called"]
        for index, tool in enumerate(data.get("expected_tools") or []):
            builder.asserts.extend(_tool_asserts(builder, f"expected_tools[{index}]", tool))
        if builder.asserts and "expected_output" in builder.vars:
            # The tools are checked, and the answer too (what the rubric of a test without
            # its own grading does).
            builder.asserts.append(
                {
                    "type": "llm-rubric",
                    "value": "Matches the reference answer: {{ expected_output }}",
                }
            )

    def _conversation(self, builder: TestBuilder, data: dict[str, Any]) -> None:
        if isinstance(data.get("scenario"), str) and data["scenario"]:
            builder.description = data["scenario"]
        turns = data.get("turns") or []
        if isinstance(turns, str):
            try:
                turns = json.loads(turns)
            except ValueError:
                builder.keep_unsupported("turns", turns, "turns written as text, not JSON")
                turns = []
        messages = chat_messages(builder, "turns", _turns(turns))
        before, answer = split_answer(messages)
        builder.vars["input"] = before
        if answer is not None:
            builder.vars["expected_output"] = answer
        if isinstance(data.get("expected_outcome"), str) and data["expected_outcome"]:
            builder.asserts.append({"type": "llm-rubric", "value": data["expected_outcome"]})


def _turns(turns: Any) -> Any:
    """DeepEval's `Turn`s as chat messages: their tools and contexts kept on the message."""
    if not isinstance(turns, list):
        return turns
    messages = []
    for turn in turns:
        if isinstance(turn, dict):
            message = {key: value for key, value in turn.items() if value is not None}
            called = message.pop("tools_called", None)
            if isinstance(called, list) and called:
                message["tool_calls"] = [_tool_call(tool) for tool in called]
            messages.append(message)
        else:
            messages.append(turn)
    return messages


def _tool_call(tool: Any) -> Any:
    """A DeepEval `ToolCall` (`name`, `input_parameters`, `output`) as AgentV's."""
    if not isinstance(tool, dict) or "name" not in tool:
        return tool
    call = {"tool": tool["name"], "input": tool.get("input_parameters") or {}}
    if tool.get("output") is not None:
        call["output"] = tool["output"]
    return call


def _tool_asserts(builder: TestBuilder, field: str, tool: Any) -> list[dict[str, Any]]:
    """An expected `ToolCall` as trajectory asserts: used, with its arguments when given."""
    if isinstance(tool, str):
        tool = {"name": tool}
    if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
        builder.keep_unsupported(field, tool, "an expected tool without a name")
        return []
    asserts: list[dict[str, Any]] = [
        {"type": "trajectory:tool-used", "value": {"name": tool["name"], "min": 1}}
    ]
    arguments = tool.get("input_parameters")
    if isinstance(arguments, dict) and arguments:
        asserts.append(
            {
                "type": "trajectory:tool-args-match",
                "value": {"name": tool["name"], "args": arguments, "mode": "partial"},
            }
        )
    if tool.get("output") is not None:
        builder.keep_unsupported(
            f"{field}.output", tool["output"], "AgentV does not check a tool's output"
        )
    return asserts


def _from_csv(row: dict[str, Any]) -> dict[str, Any]:
    """A CSV row as the record DeepEval saved: lists split on `|`, tools on `;`, `turns` and
    metadata as JSON text, empty cells as absent."""
    data: dict[str, Any] = {}
    for key, value in row.items():
        if value == "":
            continue
        if key in LIST_COLUMNS:
            data[key] = value.split("|")
        elif key in TOOL_COLUMNS:
            data[key] = [_json_or_text(item) for item in value.split(";") if item]
        elif key in ("additional_metadata", "custom_column_key_values", "turns"):
            data[key] = _json_or_text(value)
        else:
            data[key] = value
    return data


def _json_or_text(value: str) -> Any:
    try:
        return json.loads(value)
    except ValueError:
        return value

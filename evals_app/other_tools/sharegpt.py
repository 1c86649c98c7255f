"""ShareGPT conversations as LLaMA-Factory's `data/README.md` describes them:
`conversations: [{from, value}]` with `human`, `gpt`, `system`, `function_call` and
`observation`, and optional `system` and `tools` columns."""

from __future__ import annotations

import json
from typing import Any

from .base import Mapped, Row, TestBuilder, generated_id
from .messages import parsed_arguments, split_answer
from .row_sources import RowSource

SPEAKERS = {"human": "user", "user": "user", "gpt": "assistant", "assistant": "assistant"}


class ShareGpt(RowSource):
    """`conversations` of `{from, value}` (docs/imports.md, "Chat datasets")."""

    name = "sharegpt"
    label = "ShareGPT conversations (LLaMA-Factory)"

    def looks_like(self, record: dict[str, Any]) -> bool:
        turns = record.get("conversations")
        return isinstance(turns, list) and all(
            isinstance(turn, dict) and "from" in turn for turn in turns
        )

    def map(self, row: Row) -> Mapped:
        builder = TestBuilder(row, self.name)
        data = row.data
        builder.set_id(data.get("id"), generated_id(row.file, row.row))
        messages: list[dict[str, Any]] = []
        if isinstance(data.get("system"), str) and data["system"]:
            messages.append({"role": "system", "content": data["system"]})
        messages += self._messages(builder, data.get("conversations") or [])
        before, answer = split_answer(messages)
        builder.vars["input"] = before
        if answer is None:
            builder.warn("conversations", "no final gpt turn: the test has no expected output")
        else:
            builder.vars["expected_output"] = answer
        for key, value in data.items():
            if key in ("id", "conversations", "system"):
                continue
            builder.metadata[key] = _json_value(value) if key == "tools" else value
        return builder.build()

    def _messages(self, builder: TestBuilder, turns: list[Any]) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = []
        pending: list[str] = []  # ids of calls waiting for their observation, oldest first
        calls = 0
        for index, turn in enumerate(turns):
            where = f"conversations[{index}]"
            speaker = turn.get("from") if isinstance(turn, dict) else None
            value = turn.get("value", "") if isinstance(turn, dict) else None
            if speaker in SPEAKERS:
                messages.append({"role": SPEAKERS[speaker], "content": value})
            elif speaker == "system":
                messages.append({"role": "system", "content": value})
            elif speaker == "function_call":
                calls += 1
                call_id = f"call-{calls}"
                pending.append(call_id)
                call = parsed_arguments(value)
                name = call.get("name") if isinstance(call, dict) else None
                arguments = call.get("arguments") if isinstance(call, dict) else call
                messages.append(
                    {
                        "role": "assistant",
                        "content": "",
                        "tool_calls": [{"id": call_id, "tool": name, "input": arguments}],
                    }
                )
            elif speaker == "observation":
                answered = pending.pop(0) if pending else None
                message: dict[str, Any] = {"role": "tool", "content": value}
                if answered is not None:
                    message["tool_call_id"] = answered
                messages.append(message)
            else:
                builder.keep_unsupported(where, turn, f"the speaker {speaker!r} is not ShareGPT's")
        return messages


def _json_value(value: Any) -> Any:
    """A column LLaMA-Factory stores as JSON text (`tools`), as the data it holds."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value

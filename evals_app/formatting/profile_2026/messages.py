"""A rendered test's input as messages, and each message's segments (docs/formatting.md,
"The AgentV 2026 profile", steps 1 and 2).

Segments are resolved here, once, and rendered per mode in `prompt.py`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from evals_app.formatting.case_input import ROLES, MessageInput
from evals_app.formatting.segments import WarningCode, places_tried
from evals_app.formatting.workspace_files import FileSource, resolve_file

Warn = Callable[[WarningCode, str, int | None], None]


@dataclass(frozen=True, slots=True)
class Segment:
    """One piece of a message: text as written, or a resolved file (display path, workspace
    path, text)."""

    kind: str  # "text" or "file"
    value: str
    path: str = ""
    file_text: str = ""

    @property
    def visible(self) -> bool:
        """Text that is not blank, or a file whose text is not blank."""
        return bool((self.file_text if self.kind == "file" else self.value).strip())


def is_message(value: Any) -> bool:
    """A mapping AgentV accepts as a message: one of the four roles and some content."""
    return (
        isinstance(value, dict)
        and value.get("role") in ROLES
        and ("content" in value or "tool_calls" in value)
    )


def input_messages(value: Any, input_files: Any, warn: Warn) -> list[MessageInput]:
    """The messages of a rendered input; `input_files` (the test's, else the suite's) apply
    only to a string input."""
    if input_files is not None:
        paths = (
            [path for path in input_files if isinstance(path, str)]
            if isinstance(input_files, list)
            else []
        )
        if isinstance(value, str) and paths:
            blocks: list[Any] = [{"type": "file", "value": path} for path in paths]
            return [MessageInput("user", [*blocks, {"type": "text", "value": value}])]
        if not isinstance(value, str) and value is not None:
            warn(
                "input_files_ignored",
                "`input_files` applies only to an input that is text; with messages it is ignored.",
                None,
            )
    if value is None:
        return []
    if isinstance(value, str):
        parsed = _chat_array(value)
        if parsed is not None:
            return parsed
        return [MessageInput("user", value)]
    if isinstance(value, dict):
        if "role" not in value:
            return [MessageInput("user", value)]
        if is_message(value):
            return [MessageInput(value["role"], value.get("content"))]
        warn("no_input", "the input is a mapping with an unknown role; AgentV ignores it.", None)
        return []
    if isinstance(value, list):
        messages = [
            MessageInput(item["role"], item.get("content")) for item in value if is_message(item)
        ]
        if len(messages) < len(value):
            warn("no_input", "items of the input that are not messages are ignored.", None)
        return messages
    warn(
        "no_input",
        f"the input is {type(value).__name__}, not text or messages; it is ignored.",
        None,
    )
    return []


def _chat_array(value: str) -> list[MessageInput] | None:
    """A string that is a JSON list of messages (a prompt file holding a chat array)."""
    trimmed = value.strip()
    if not trimmed.startswith("["):
        return None
    try:
        parsed = json.loads(trimmed)
    except ValueError:
        return None
    if not isinstance(parsed, list) or not parsed or not all(is_message(item) for item in parsed):
        return None
    return [MessageInput(item["role"], item.get("content")) for item in parsed]


def json_text(value: Any) -> str:
    """JSON.stringify(value, null, 2): keys in order, non-ASCII kept."""
    return json.dumps(value, ensure_ascii=False, indent=2, default=str)


class SegmentReader:
    """Turns messages into segments, resolving file blocks from the eval file's folder up."""

    def __init__(self, *, eval_path: str, files: FileSource, warn: Warn, note: Warn) -> None:
        self.eval_path = eval_path
        self.files = files
        self.warn = warn
        self.note = note

    def segments(self, content: Any, turn: int) -> list[Segment]:
        """The segments of one message's content, in order."""
        if isinstance(content, str):
            return [Segment("text", content)] if content.strip() else []
        if isinstance(content, dict):
            return [Segment("text", json_text(content))]
        if not isinstance(content, list):
            return []
        found: list[Segment] = []
        for index, item in enumerate(content):
            if isinstance(item, str):
                if item.strip():
                    found.append(Segment("text", item))
                continue
            if not isinstance(item, dict):
                continue
            segment = self._block(item, index, turn)
            if segment is not None:
                found.append(segment)
        return found

    def _block(self, item: dict[Any, Any], index: int, turn: int) -> Segment | None:
        block_type, value = item.get("type"), item.get("value")
        if block_type == "text":
            # A text block is kept as it is, even blank (AgentV keeps block mappings whole).
            return Segment("text", value) if isinstance(value, str) else None
        if block_type == "image":
            shown = value if isinstance(value, str) else "(no path)"
            self.note(
                "image_not_rendered",
                f'image "{shown}" is sent to the model as an image; it is not shown as text.',
                turn,
            )
            return None
        if block_type != "file":
            shown = (
                f'block type "{block_type}"'
                if isinstance(block_type, str)
                else f"block {index + 1}"
            )
            self.warn("unknown_block_type", f"{shown} renders nothing in the prompt.", turn)
            return None
        if not isinstance(value, str) or not value:
            self.warn(
                "unusable_block_value", f"file block {index + 1} has no path; it is left out.", turn
            )
            return None
        resolution = resolve_file(value, self.eval_path, self.files)
        if resolution.undecodable_path is not None:
            self.warn(
                "undecodable_file",
                f'file "{resolution.display_path}" is not UTF-8 text; the block is left out.',
                turn,
            )
            return None
        if resolution.file is None:
            self.warn(
                "missing_file",
                f'file "{resolution.display_path}" was not found ({places_tried(resolution)}); '
                "the block is left out.",
                turn,
            )
            return None
        if not resolution.file.text.strip():
            self.warn("empty_file", f'file "{resolution.display_path}" is empty.', turn)
        return Segment("file", resolution.display_path, resolution.file.path, resolution.file.text)

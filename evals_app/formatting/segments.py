"""Rendering the blocks of one message into segments (docs/formatting.md, "Segments of a message").

Also home of the types every part of the engine shares: `Mode` and `FormattingWarning`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from evals_app.formatting.guideline_patterns import is_guideline
from evals_app.formatting.workspace_files import (
    FileResolution,
    FileSource,
    ResolvedFile,
    resolve_file,
)

Mode = Literal["lm", "agent"]
MODES: tuple[Mode, ...] = ("lm", "agent")
Section = Literal["input", "expected"]
WarningCode = Literal[
    "missing_file",
    "empty_file",
    "unknown_block_type",
    "no_visible_content",
    "undecodable_file",
    "missing_judge_prompt",
    "unrenderable_content",
    "unusable_block_value",
    "no_outcome",
    # The AgentV 2026 profile's own (docs/formatting.md, "The AgentV 2026 profile").
    "template",
    "prompts",
    "no_input",
    "input_files_ignored",
    "image_not_rendered",
    "agentv_skips_test",
    "agentv_refuses_file",
    "empty_reference",
]


@dataclass(frozen=True)
class FormattingWarning:
    """A problem found while formatting; `section` and `turn` place it next to its message."""

    code: WarningCode
    message: str
    section: Section | None = None
    turn: int | None = None


class Segment(NamedTuple):
    """One rendered block. `guideline` is set for guideline refs, which are never visible.

    A named tuple: formatting a suite makes millions of them.
    """

    text: str
    visible: bool
    guideline: ResolvedFile | None = None


def places_tried(resolution: FileResolution) -> str:
    """The candidate paths of a failed resolution, in words, for a warning."""
    if not resolution.display_path:
        return "the path is empty"
    if not resolution.tried:
        return "every candidate is outside the workspace"
    return "tried " + ", ".join(resolution.tried)


class SegmentRenderer:
    """Renders the messages of one case, collecting the warnings in the order they arise."""

    def __init__(
        self,
        *,
        case_id: str,
        eval_path: str,
        files: FileSource,
        guideline_patterns: Sequence[str],
    ) -> None:
        self.case_id = case_id
        self.eval_path = eval_path
        self.files = files
        self.guideline_patterns = tuple(guideline_patterns)
        self.warnings: list[FormattingWarning] = []
        # Whether any file block was rendered: only those render differently per mode.
        self.rendered_files = False

    def render(self, content: Any, *, mode: Mode, section: Section, turn: int) -> list[Segment]:
        """The segments of one message's content, as written; what cannot be rendered
        (docs/formatting.md, "Segments of one message") leaves a warning instead."""
        segments: list[Segment] = []
        for block_type, value in self.blocks(content, section=section, turn=turn):
            if block_type == "text":
                text = value.strip()
                if text:
                    segments.append(Segment(text, True))
            else:
                self.rendered_files = True
                segment = self._render_file(value, mode=mode, section=section, turn=turn)
                if segment is not None:
                    segments.append(segment)
        return segments

    def blocks(self, content: Any, *, section: Section, turn: int) -> list[tuple[str, str]]:
        """`(type, value)` of each text or file block of `content` whose value is text."""
        if isinstance(content, str):
            return [("text", content)]
        if content is None:
            return []
        if not isinstance(content, list):
            shape = "a mapping" if isinstance(content, dict) else _described(content)
            self._warn(
                "unrenderable_content",
                f"the content is {shape}, which this profile does not format; "
                "it is kept in the YAML but left out of the prompt.",
                section,
                turn,
            )
            return []
        found: list[tuple[str, str]] = []
        for index, item in enumerate(content):
            if isinstance(item, str):
                found.append(("text", item))
                continue
            block_type = item.get("type") if isinstance(item, dict) else None
            value = item.get("value") if isinstance(item, dict) else None
            if block_type not in ("text", "file"):
                shown = (
                    f'block type "{block_type}"'
                    if isinstance(block_type, str)
                    else (f"block {index + 1} ({_described(item)})")
                )
                self._warn(
                    "unknown_block_type",
                    f"{shown} is not formatted; it is kept in the YAML but left out of the prompt.",
                    section,
                    turn,
                )
            elif not isinstance(value, str):
                self._warn(
                    "unusable_block_value",
                    f"{block_type} block {index + 1} has no text value ({_described(value)}); "
                    "it is kept in the YAML but left out of the prompt.",
                    section,
                    turn,
                )
            else:
                found.append((block_type, value))
        return found

    def _render_file(
        self, value: str, *, mode: Mode, section: Section, turn: int
    ) -> Segment | None:
        resolution = resolve_file(value, self.eval_path, self.files)
        shown = resolution.display_path
        if resolution.undecodable_path is not None:
            self._warn(
                "undecodable_file",
                f'file "{shown}" ({resolution.undecodable_path}) is not UTF-8 text; '
                "the block is left out.",
                section,
                turn,
            )
            return None
        file = resolution.file
        if file is None:
            self._warn(
                "missing_file",
                f'file "{shown}" was not found ({places_tried(resolution)}); '
                "the block is left out.",
                section,
                turn,
            )
            return None
        if is_guideline(file.path, self.guideline_patterns):
            if section == "input" and not file.text.strip():
                self._warn(
                    "empty_file",
                    f'guideline file "{shown}" is empty; it is left out of the guidelines.',
                    section,
                    turn,
                )
            return Segment(f"<Attached: {shown}>", visible=False, guideline=file)
        text = file.text.strip()
        if mode == "agent":
            if not text:
                self._warn(
                    "empty_file",
                    f'file "{shown}" is empty; its reference does not count as visible content.',
                    section,
                    turn,
                )
            return Segment(f'<file: path="{shown}">', visible=bool(text))
        if not text:
            self._warn("empty_file", f'file "{shown}" is empty; it renders nothing.', section, turn)
            return None
        return Segment(f'<file path="{shown}">\n{text}\n</file>', visible=True)

    def warn_case(self, code: WarningCode, message: str) -> None:
        """Record a warning about the case as a whole, not one message."""
        self.warnings.append(FormattingWarning(code, f'Case "{self.case_id}": {message}'))

    def _warn(self, code: WarningCode, message: str, section: Section, turn: int) -> None:
        where = f'Case "{self.case_id}", {section} message {turn + 1}'
        self.warnings.append(FormattingWarning(code, f"{where}: {message}", section, turn))


def _described(value: Any) -> str:
    """A value's kind in words, for a warning."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value!r}, which YAML reads as a number: quote it to make it text"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__

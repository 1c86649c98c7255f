"""The question, `chat_prompt` and `system_message` of the AgentV 2026 profile
(docs/formatting.md, "The AgentV 2026 profile", steps 3 and 4).

The marker decision and its reasons are the 2025 profile's (`engine.decide_role_markers`); what
differs is how a segment renders and that the system message is its own field.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evals_app.formatting.case_input import Role
from evals_app.formatting.profile_2025.formatter import ROLE_LABELS, decide_role_markers
from evals_app.formatting.profile_2026.messages import Segment
from evals_app.formatting.segments import Mode


@dataclass(frozen=True)
class ResolvedMessage:
    """One input message with its segments."""

    role: Role
    segments: tuple[Segment, ...]

    @property
    def visible(self) -> bool:
        """Whether one of its segments has visible content."""
        return any(segment.visible for segment in self.segments)


@dataclass(frozen=True)
class Prompt:
    """What the model is sent for one test in one mode."""

    question: str
    chat_prompt: list[dict[str, str]] | None
    system_message: str | None
    role_markers: bool
    reason: str
    # The visible messages in order: (role, rendered segments joined by "\n").
    messages: tuple[tuple[str, str], ...] = ()


def absolute_path(checkout_folder: str, workspace_path: str) -> str:
    """Where AgentV finds a workspace file on the machine that runs it: the checkout folder
    joined with the file's workspace path (`/` + the path when the folder is unknown)."""
    return f"{checkout_folder.rstrip('/')}/{workspace_path}"


def render_segment(segment: Segment, mode: Mode, checkout_folder: str) -> str:
    """A segment as the prompt shows it; empty text when it renders nothing."""
    if segment.kind == "text":
        return segment.value
    if mode == "agent":
        return f'<file: path="{absolute_path(checkout_folder, segment.path)}">'
    text = segment.file_text.strip()
    return f'<file path="{segment.value}">\n{text}\n</file>' if text else ""


def build_prompt(messages: Sequence[ResolvedMessage], mode: Mode, checkout_folder: str) -> Prompt:
    """The question, chat prompt and system message of `messages` in `mode`."""
    rendered = [
        [
            text
            for segment in message.segments
            if (text := render_segment(segment, mode, checkout_folder))
        ]
        for message in messages
    ]
    visible = sum(1 for message in messages if message.visible)
    markers, reason = decide_role_markers([message.role for message in messages], visible)
    system = _system_message(messages, rendered)
    shown = tuple(
        (message.role, "\n".join(parts))
        for message, parts in zip(messages, rendered, strict=True)
        if message.visible and parts
    )
    if markers:
        question = "\n\n".join(f"@[{ROLE_LABELS[role]}]:\n{text}" for role, text in shown)
        return Prompt(question, _chat_prompt(messages, rendered), system, True, reason, shown)
    flat = [part.strip() for parts in rendered for part in parts]
    question = "\n\n".join(part for part in flat if part)
    return Prompt(question, None, system, False, reason, shown)


def _leading_system(messages: Sequence[ResolvedMessage]) -> int:
    count = 0
    while count < len(messages) and messages[count].role == "system":
        count += 1
    return count


def _system_message(messages: Sequence[ResolvedMessage], rendered: list[list[str]]) -> str | None:
    parts = [
        "\n".join(rendered[index]) for index in range(_leading_system(messages)) if rendered[index]
    ]
    return "\n\n".join(parts) if parts else None


def _chat_prompt(
    messages: Sequence[ResolvedMessage], rendered: list[list[str]]
) -> list[dict[str, str]] | None:
    leading = _leading_system(messages)
    chat: list[dict[str, str]] = []
    system = _system_message(messages, rendered)
    if system is not None:
        chat.append({"role": "system", "content": system})
    for message, parts in zip(messages[leading:], rendered[leading:], strict=True):
        role: str = message.role
        if role in ("system", "tool"):
            # Even a message that renders nothing else keeps its marker line.
            parts = [f"@[{ROLE_LABELS[message.role]}]:", *parts]
            role = "assistant"
        if parts:
            chat.append({"role": role, "content": "\n".join(parts)})
    return chat or None

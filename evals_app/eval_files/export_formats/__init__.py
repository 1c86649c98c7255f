"""A suite written in another tool's format: promptfoo's config YAML and chat JSONL
(docs/exports.md). Plain Python, no Django: `portable_suite` takes a suite's header and cases
as stored, the writers turn it into a file's text and its warnings."""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ...formatting.workspace_files import FileSource
from .chat_jsonl import chat_jsonl
from .portable import PortableSuite, portable_suite
from .promptfoo import promptfoo_config

__all__ = ["EXPORT_FORMATS", "ExportFormat", "OtherFormat", "PortableSuite", "portable_suite"]

OtherFormat = Literal["promptfoo", "chat-jsonl"]


@dataclass(frozen=True)
class ExportFormat:
    """One format a suite exports to: its name, label, file suffix, media type and writer."""

    name: OtherFormat
    label: str
    suffix: str
    media_type: str
    write: Callable[[PortableSuite, FileSource], str]

    def file_path(self, suite_path: str) -> str:
        """Where a folder export writes the suite at `suite_path`: its path with its last
        suffix replaced (`evals/a.eval.yaml` → `evals/a.eval.promptfoo.yaml`)."""
        return posixpath.splitext(suite_path)[0] + self.suffix

    def file_name(self, suite_path: str) -> str:
        """The name a download of the suite at `suite_path` gets."""
        return posixpath.basename(self.file_path(suite_path))


EXPORT_FORMATS: dict[str, ExportFormat] = {
    "promptfoo": ExportFormat(
        "promptfoo",
        "promptfoo config (YAML)",
        ".promptfoo.yaml",
        "application/yaml",
        promptfoo_config,
    ),
    "chat-jsonl": ExportFormat(
        "chat-jsonl",
        "chat JSONL (messages)",
        ".chat.jsonl",
        "application/x-ndjson",
        chat_jsonl,
    ),
}

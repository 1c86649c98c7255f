"""A suite's `prompts` as rows: each entry of the file's `prompts` as the settings page edits
it (a template, a prompt file, or YAML for a chat array or a mapping), and back.

What each entry means to AgentV is in docs/formatting.md, "The AgentV 2026 profile", step 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ...eval_files.errors import EvalFileError
from ...eval_files.yaml_dumper import dump_yaml
from ...eval_files.yaml_loader import load_yaml
from ...formatting.profile_2026.expansion import FILE_PROTOCOL, prompt_entries

PromptKind = Literal["template", "file", "yaml"]
KINDS: tuple[PromptKind, ...] = ("template", "file", "yaml")


@dataclass(frozen=True)
class PromptRow:
    """One prompt as the card shows it: a template's text, a prompt file's path (without
    `file://`), or the YAML of any other entry."""

    kind: PromptKind
    text: str


def rows_of(prompts: Any) -> list[PromptRow]:
    """The rows of a stored `prompts` value (none when it is missing or null), one per prompt
    AgentV reads: a chat array written as the whole value is one prompt, as AgentV reads it."""
    if prompts is None:
        return []
    return [_row_of(entry) for entry in prompt_entries(prompts)]


def _row_of(entry: Any) -> PromptRow:
    if isinstance(entry, str):
        if entry.startswith(FILE_PROTOCOL):
            return PromptRow("file", entry.removeprefix(FILE_PROTOCOL))
        return PromptRow("template", entry)
    return PromptRow("yaml", dump_yaml(entry))


def entries_of(rows: Sequence[PromptRow]) -> list[Any]:
    """The `prompts` entries the rows stand for. Raises EvalFileError, naming the prompt (from
    1) and the line, when a row's YAML does not parse or a prompt file has no path."""
    entries = []
    for number, row in enumerate(rows, start=1):
        if row.kind == "template":
            entries.append(row.text)
        elif row.kind == "file":
            if not row.text.strip():
                raise EvalFileError(f"Prompt {number}: type the path of the prompt file.")
            entries.append(FILE_PROTOCOL + row.text)
        else:
            entries.append(_yaml_entry(number, row.text))
    if len(entries) > 1 and len(prompt_entries(entries)) != len(entries):
        # A list of single messages is a chat array to AgentV: one prompt, not several.
        raise EvalFileError(
            "Every prompt is a single chat message, so AgentV would read them together as one "
            "chat array: write each prompt as a list of messages (`- role: user`)."
        )
    return entries


def _yaml_entry(number: int, text: str) -> Any:
    # Read as eval files are (core tags only, bounded nesting and aliases), so what is stored
    # is what an import of the exported file reads back.
    try:
        value = load_yaml(text).data
    except EvalFileError as error:
        where = f"Prompt {number}, line {error.line}" if error.line else f"Prompt {number}"
        raise EvalFileError(
            f"{where}: {error.message}", line=error.line, field=f"prompts[{number - 1}]"
        ) from None
    if value is None:
        raise EvalFileError(
            f"Prompt {number} is empty: write a chat array or a mapping, or remove it.",
            field=f"prompts[{number - 1}]",
        )
    return value

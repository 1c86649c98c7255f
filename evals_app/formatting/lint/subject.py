"""What the linter reads of a case: its messages as written, its grading, its variables and
the workspace's files. Built by the profile of its suite; the linter knows no file format."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from evals_app.formatting.lint.text import file_values
from evals_app.formatting.workspace_files import FileSource


@dataclass(frozen=True, slots=True)
class RoleOrder:
    """A profile's rule for the order of roles: `later_system` is how a system turn after the
    conversation has begun is sent ("" when the profile sends it as a system turn)."""

    later_system: str = ""


@dataclass(frozen=True)
class LintCase:
    """One case to lint.

    `input_messages` and `expected_messages` are the messages as written (mappings with `role`,
    `content` and perhaps `tool_calls` or `tool_call_id`); `graded` says whether anything grades
    the case; `rubrics` are the texts a judge grades against, each with the field it is in;
    `variables` are the names templates may use (None when the profile renders no templates)
    and `own_variables` those the case defines itself; `templates` are the other texts rendered
    with them, by field; `metadata` is the case's `metadata`; `question` is its formatted
    question (for near-duplicates); `eval_path` and `files` resolve file references.
    """

    case_id: str
    input_messages: tuple[Mapping[Any, Any], ...] = ()
    expected_messages: tuple[Mapping[Any, Any], ...] = ()
    graded: bool = True
    rubrics: tuple[tuple[str, str], ...] = ()
    variables: frozenset[str] | None = None
    own_variables: tuple[str, ...] = ()
    templates: tuple[tuple[str, str], ...] = ()
    metadata: Any = None
    question: str = ""
    eval_path: str = ""
    attachments: tuple[tuple[str, str], ...] = ()
    files: FileSource | None = None
    role_order: RoleOrder = field(default_factory=RoleOrder)

    def file_references(self) -> list[str]:
        """Every file the case attaches: what `files` must hold for the attachment rule."""
        values = [
            value
            for message in (*self.input_messages, *self.expected_messages)
            for value in file_values(message)
        ]
        return values + [value for _, value in self.attachments]

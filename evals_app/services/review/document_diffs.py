"""Two versions of a case side by side, for a conflict or a sync's check: the conversation,
the formatted question and the YAML (the partials of evals/case_compare.html)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...eval_files.errors import EvalFileError
from ...eval_files.yaml_dumper import dump_yaml
from ...models import Suite
from ..profiles import profile_of
from ..profiles.workspace_formatter import WorkspaceFormatter
from .case_diff import (
    FieldChange,
    conversation_diff,
    field_changes,
    fold_unchanged,
    line_diff,
)


@dataclass(frozen=True)
class DocumentDiff:
    """What differs between `old` and `new` versions of a case; either may be absent."""

    fields: list[FieldChange]
    turns: list[Any]
    question: list[Any]
    yaml: list[Any]


def document_diff(
    formatter: WorkspaceFormatter,
    suite: Suite,
    old: dict[Any, Any] | None,
    new: dict[Any, Any] | None,
) -> DocumentDiff:
    """The diff of two case mappings (None: the version does not exist); the question is
    formatted by the suite's profile."""
    turns = conversation_diff(old, new) if old and new else []
    return DocumentDiff(
        fields=field_changes(old, new) if old and new else [],
        turns=fold_unchanged(turns, lambda change: change.kind == "unchanged", context=1),
        question=_folded(_question(formatter, suite, old), _question(formatter, suite, new)),
        yaml=_folded(_yaml(old), _yaml(new)),
    )


def _folded(old: str, new: str) -> list[Any]:
    return fold_unchanged(line_diff(old, new), lambda row: row.op == "equal")


def _yaml(document: dict[Any, Any] | None) -> str:
    return dump_yaml(document) if document else ""


def _question(formatter: WorkspaceFormatter, suite: Suite, document: dict[Any, Any] | None) -> str:
    if not document:
        return ""
    try:
        return profile_of(suite).question(formatter, suite, document)
    except EvalFileError as error:
        return f"(cannot be formatted: {error})"

"""The rows of `formatted.jsonl`: what a case formats to, per mode (and per expanded test of the
AgentV 2026 profile), as export writes them and the API returns them (docs/user-guide.md,
"Command line"; docs/api.md). Each row also holds the case's lint findings (`lint`) and, when
asked for, its token counts (`tokens`, in the workspace's encoding)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...formatting.lint import lint_case
from ...formatting.profile_2025.formatter import Mode
from ...formatting.token_counts import Encoding, count_tokens, encoding_named
from ...models import Suite
from . import profile_of
from .linting import lint_subject
from .workspace_formatter import WorkspaceFormatter


def formatted_rows(
    formatter: WorkspaceFormatter,
    suite: Suite,
    document: dict[Any, Any],
    modes: tuple[Mode, ...],
    *,
    toon: bool = False,
    single: bool = False,
    tokens: bool = False,
) -> list[dict[str, Any]]:
    """The rows of the case `document` of `suite`: one per mode, or for the AgentV 2026 profile
    one per expanded test and mode, each test's modes together. With `single`, only the files
    the case may refer to are read (one case, as the API asks for). With `tokens`, each row
    also holds its token counts (`tokens`), which take a moment to count."""
    profile = profile_of(suite)
    rows = profile.formatted_rows(formatter, suite, document, modes, toon=toon, single=single)
    lint = case_findings(formatter, suite, document)
    for row in rows:
        row["lint"] = lint
    if tokens:
        add_token_counts(rows, encoding_named(formatter.workspace.token_encoding))
    return rows


def add_token_counts(rows: list[dict[str, Any]], encoding: Encoding) -> None:
    """Put on each row the token counts of its texts in `encoding`."""
    counted: dict[str, int] = {}  # a case's modes mostly share their texts: each counted once
    for row in rows:
        counts: dict[str, Any] = {"encoding": encoding}
        for name in _COUNTED:
            text = row.get(name) or ""
            if text not in counted:
                counted[text] = count_tokens(text, encoding)
            counts[name] = counted[text]
        row["tokens"] = counts


# The texts of a row whose tokens it counts: what the model receives, and the judge prompt.
_COUNTED = ("question", "guidelines", "system_message", "evaluator_prompt")


def case_findings(
    formatter: WorkspaceFormatter, suite: Suite, document: dict[Any, Any]
) -> list[dict[str, Any]]:
    """The findings of the one-case lint rules for the case `document` of `suite`, as plain
    data (docs/user-guide.md, "Lint rules")."""
    profile = profile_of(suite)
    subject = lint_subject(profile, document, formatter.file_header(suite), eval_path=suite.path)
    if subject is None:
        return []
    files = formatter.files_for(subject.file_references(), suite.path)
    return [found.as_json() for found in lint_case(replace(subject, files=files))]

"""The rows of `formatted.jsonl`: what a case formats to, per mode (and per expanded test of the
AgentV 2026 profile), as export writes them and the API returns them (docs/user-guide.md,
"Command line"; docs/api.md)."""

from __future__ import annotations

from typing import Any

from ...formatting.profile_2025.formatter import Mode
from ...models import Suite
from . import profile_of
from .workspace_formatter import WorkspaceFormatter


def formatted_rows(
    formatter: WorkspaceFormatter,
    suite: Suite,
    document: dict[Any, Any],
    modes: tuple[Mode, ...],
    *,
    toon: bool = False,
    single: bool = False,
) -> list[dict[str, Any]]:
    """The rows of the case `document` of `suite`: one per mode, or for the AgentV 2026 profile
    one per expanded test and mode, each test's modes together. With `single`, only the files
    the case may refer to are read (one case, as the API asks for)."""
    return profile_of(suite).formatted_rows(
        formatter, suite, document, modes, toon=toon, single=single
    )

"""Which parts of a case would start a program on this machine when run: refused unless the
operator allows commands (docs/runs.md, "Safety")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

# Grader types that run a command, in every period's spelling (docs/formats.md).
COMMAND_GRADERS = frozenset(
    {"script", "code", "code-grader", "code_grader", "code-judge", "code_judge"}
)
# Suite keys whose commands AgentV runs around the tests (workspace hooks and setup scripts).
COMMAND_SUITE_KEYS = ("workspace", "hooks", "before_all", "after_all", "setup", "teardown")


def commands_in_case(document: Any) -> Iterator[str]:
    """Why the case's mapping runs a command, one reason per grader that does."""
    for path, mapping in _mappings(document, "the case"):
        kind = mapping.get("type")
        if isinstance(kind, str) and kind in COMMAND_GRADERS:
            yield f"{path}: a `{kind}` grader runs a command"
        elif "command" in mapping and path != "the case":
            yield f"{path}: `command` runs a program"


def commands_in_suite(suite_document: Any) -> Iterator[str]:
    """Why the suite's own keys run a command (hooks, a workspace's setup)."""
    if not isinstance(suite_document, dict):
        return
    for key in COMMAND_SUITE_KEYS:
        if key in suite_document and _holds_command(suite_document[key]):
            yield f"the suite's `{key}` runs commands"


def _holds_command(value: Any) -> bool:
    if isinstance(value, dict):
        return any(
            key in ("command", "script", "commands") or _holds_command(item)
            for key, item in value.items()
        )
    if isinstance(value, list):
        return any(_holds_command(item) for item in value)
    return False


def _mappings(value: Any, path: str) -> Iterator[tuple[str, dict[Any, Any]]]:
    if isinstance(value, dict):
        yield path, value
        for key, item in value.items():
            yield from _mappings(item, f"{path} › {key}")
    elif isinstance(value, list):
        for index, item in enumerate(value, start=1):
            yield from _mappings(item, f"{path} #{index}")

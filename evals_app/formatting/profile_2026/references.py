"""Every file a test of a today's file may read when it is formatted: file blocks at any depth,
`input_files`, `file://` prompts and judge prompt files (docs/formatting.md, "The AgentV 2026
profile"). Import stores them; the preview reads only them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

FILE_PROTOCOL = "file://"


def file_references_2026(document: dict[Any, Any], header: dict[Any, Any]) -> list[str] | None:
    """The file references of the test `document` of the file whose top level is `header`, in
    order; None when one of them is a template (it names a file only once rendered)."""
    values = list(_references(document)) + list(_header_references(header))
    if any("{{" in value or "{%" in value for value in values):
        return None
    return list(dict.fromkeys(values))


def _header_references(header: dict[Any, Any]) -> Iterator[str]:
    for key in ("prompts", "input_files", "default_test", "assert"):
        if key in header:
            yield from _references(header[key], prompts=key == "prompts")


def _references(value: Any, *, prompts: bool = False) -> Iterator[str]:
    if isinstance(value, str):
        if value.startswith(FILE_PROTOCOL):
            yield value.removeprefix(FILE_PROTOCOL)
        return
    if isinstance(value, list):
        for item in value:
            yield from _references(item, prompts=prompts)
        return
    if not isinstance(value, dict):
        return
    for key, item in value.items():
        if key == "input_files" and isinstance(item, list):
            yield from (path for path in item if isinstance(path, str))
        elif key == "value" and value.get("type") in ("file", "image") and isinstance(item, str):
            yield item
        elif key == "prompt" and isinstance(item, str) and "\n" not in item.strip():
            yield item.strip().removeprefix(FILE_PROTOCOL)
        elif key == "file" and prompts and isinstance(item, str):
            yield item.removeprefix(FILE_PROTOCOL)
        else:
            yield from _references(item, prompts=prompts)

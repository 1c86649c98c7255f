"""The text of a suite file of imported tests: written by the app's own writer
(eval_files/writing.py), with a YAML comment above each `imported_unsupported` saying that
what it holds came from the source and is not run by AgentV (docs/imports.md)."""

from __future__ import annotations

import re
from typing import Any

from ..eval_files.writing import case_text, eval_file_pieces

# At four spaces it is a key of a test's `metadata` (or the header's `default_test.metadata`):
# text of a block scalar under a test sits deeper.
_UNSUPPORTED_KEY = re.compile(r"^(    )imported_unsupported:$", re.MULTILINE)
COMMENT = "# Kept from the source with no AgentV equivalent: AgentV does not run it. Fields: {}"


def suite_text(header: dict[str, Any], tests: list[dict[str, Any]]) -> str:
    """The suite file: `header`'s keys (its `tests` placed as the list of tests) and `tests`."""
    placed = dict(header)
    placed["tests"] = [None] * len(tests)
    texts = (commented(case_text("yaml", test), test.get("metadata")) for test in tests)
    pieces = eval_file_pieces("yaml", placed, "tests", texts)
    text = "".join(pieces)
    default = header.get("default_test")
    if isinstance(default, dict):
        text = commented(text, default.get("metadata"), first_only=True)
    return text


def commented(text: str, metadata: Any, *, first_only: bool = False) -> str:
    """`text` with the comment above its `imported_unsupported:` key (the first one only for a
    header, whose tests come after it and carry their own)."""
    if not isinstance(metadata, dict) or not isinstance(metadata.get("imported_unsupported"), list):
        return text
    fields = ", ".join(
        str(item.get("field"))
        for item in metadata["imported_unsupported"]
        if isinstance(item, dict)
    )

    def comment(match: re.Match[str]) -> str:
        indent = match.group(1)
        return f"{indent}{COMMENT.format(fields)}\n{match.group(0)}"

    return _UNSUPPORTED_KEY.sub(comment, text, count=1 if first_only else 0)

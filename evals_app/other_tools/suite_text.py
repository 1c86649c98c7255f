"""The text of a suite file of imported tests: written by the app's own writer
(eval_files/writing.py), with a YAML comment above each `imported_unsupported` saying that
what it holds came from the source and is not run by AgentV (docs/imports.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..eval_files.writing import case_text, eval_file_pieces
from .conversion import Conversion, plain_data, suite_header

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


@dataclass(frozen=True)
class SuiteFile:
    """A new suite of imported tests: its top level (its `tests` empty: the cases are rows),
    and its text when the file needs one of its own, None when the app's writer writes it."""

    header: dict[str, Any]
    text: str | None


def suite_file(conversion: Conversion, description: str | None = None) -> SuiteFile:
    """The new suite holding the conversion's tests. Only a file that keeps something aside
    needs its own text, for the comments beside it; any other is written by the app's own
    writer, as a suite made in the app is (docs/imports.md), so nothing is written twice."""
    with plain_data():
        header = suite_header(conversion, description)
        kept_aside = bool(conversion.unsupported) or any(
            "imported_unsupported" in test["metadata"] for test in conversion.tests
        )
        text = suite_text(header, conversion.tests) if kept_aside else None
        header["tests"] = []
        return SuiteFile(header, text)

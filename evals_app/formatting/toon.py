"""TOON encoding of the visible conversation turns, compact input for LLMs that read results.

The shape follows the seed proposal: a list of one-key objects, `- system: ...`, `- user: ...`.
"""

from __future__ import annotations

from collections.abc import Iterable

import toon_format


def encode_turns(turns: Iterable[tuple[str, str]]) -> str:
    """Encode `(role, content)` turns as a TOON list of `{role: content}` objects."""
    return str(toon_format.encode([{role: content} for role, content in turns]))


def decode_turns(document: str) -> list[tuple[str, str]]:
    """The `(role, content)` turns of a document made by `encode_turns`."""
    return [
        (str(role), str(content))
        for item in toon_format.decode(document)
        for role, content in item.items()
    ]

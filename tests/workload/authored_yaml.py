"""YAML written the way people write eval files by hand, for the generated workspaces.

Indented lists, `>-` folded outcomes, `|` blocks for code and logs, quotes only where needed,
a comment now and then. Not the export's style on purpose: importing this and exporting it
is the round trip a real team's repository goes through.
"""

from __future__ import annotations

import re
from typing import Any

# Plain scalars that every YAML reader takes as the same string: they start with a letter and
# hold nothing a parser could read as syntax. YAML 1.1 words (`yes`, `off`) are quoted too,
# as a careful author would, except in the few places the generator leaves them plain.
_PLAIN = re.compile(r"[A-Za-z][^\n\t:#'\"\\]*[^\s:]\Z|[A-Za-z]\Z")
_WORDS = {"yes", "no", "on", "off", "y", "n", "true", "false", "null"}
FOLDED_KEYS = frozenset({"outcome", "description"})
WRAP = 88


class Folded(str):
    """A string to write as a `>-` folded block (one paragraph, single spaces)."""


def scalar(value: Any) -> str:
    """A one-line scalar: plain when unambiguous, else single-quoted."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, PlainWord):
        return str(value)
    if _PLAIN.match(value) and value.lower() not in _WORDS and ": " not in value:
        return value
    return "'" + value.replace("'", "''") + "'"


class PlainWord(str):
    """A word left plain even though YAML 1.1 would read it as a boolean (`yes`, `on`)."""


def _block(value: str, indent: int) -> list[str]:
    """A `|` or `|-` literal block for multi-line text (no leading blank or space)."""
    chomp = "" if value.endswith("\n") else "-"
    body = value[:-1] if value.endswith("\n") else value
    pad = " " * indent
    lines = [f"|{chomp}"]
    lines.extend(pad + line if line else "" for line in body.split("\n"))
    return lines


def _folded(value: str, indent: int) -> list[str]:
    pad = " " * indent
    lines, line = [">-"], ""
    for word in value.split(" "):
        if line and len(line) + 1 + len(word) > WRAP:
            lines.append(pad + line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(pad + line)
    return lines


def _value_lines(value: Any, indent: int) -> list[str]:
    """The lines of a value placed after `key:`; the first one continues the key's line."""
    if isinstance(value, Folded):
        return _folded(value, indent)
    if isinstance(value, str) and "\n" in value:
        return _block(value, indent)
    if isinstance(value, dict):
        return ["", *mapping_lines(value, indent)] if value else ["{}"]
    if isinstance(value, list):
        if not value:
            return ["[]"]
        if len(value) < 6 and all(_flow_item(item) for item in value):
            return ["[" + ", ".join(scalar(item) for item in value) + "]"]
        return ["", *sequence_lines(value, indent)]
    return [scalar(value)]


def _flow_item(item: Any) -> bool:
    """Whether `item` can stand in a one-line `[a, b]` list: a one-line string, quoted if it
    holds a character that would end a plain item there."""
    if not isinstance(item, str) or "\n" in item:
        return False
    return not any(c in item for c in ",[]{}") or scalar(item).startswith("'")


def mapping_lines(mapping: dict[str, Any], indent: int) -> list[str]:
    """A block mapping at `indent` spaces."""
    pad = " " * indent
    lines: list[str] = []
    for key, value in mapping.items():
        first, *rest = _value_lines(value, indent + 2)
        lines.append(f"{pad}{scalar(key)}:" + (f" {first}" if first else ""))
        lines.extend(rest)
    return lines


def sequence_lines(items: list[Any], indent: int) -> list[str]:
    """A block sequence at `indent` spaces, mappings starting on the dash's line."""
    pad = " " * indent
    lines: list[str] = []
    for item in items:
        if isinstance(item, dict) and item:
            first, *rest = mapping_lines(item, indent + 2)
            lines.append(f"{pad}- {first.lstrip()}")
            lines.extend(rest)
        else:
            first, *rest = _value_lines(item, indent + 2)
            lines.append(f"{pad}- {first}")
            lines.extend(rest)
    return lines

"""Where each node of a YAML text lies: the layout that byte-faithful writing splices into.

The project's reader (yaml_loader) gives the data; this gives, from the same libyaml event
stream, each node's kind, style and character span, so that an unchanged node's text can be
copied and only a changed one written anew (docs/formats.md, "Round trip"). It is a walk over
libyaml's events, not a second parser: both see exactly the same document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from yaml import YAMLError
from yaml._yaml import CParser
from yaml.events import (
    AliasEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

NodeKind = Literal["scalar", "mapping", "sequence", "alias"]
# libyaml's line breaks (YAML 1.1): the marks it reports count lines by these.
LINE_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")
_BLOCK_HEADER = re.compile(r"(?:[&!]\S*[ \t]+)*[|>]([0-9+-]*)")


@dataclass(eq=False)
class Node:
    """One node: `start`/`end` are character offsets of its text (for a block scalar, `end`
    is after the line break of its last line of content; for a block collection, the end of
    its last child). `children` alternate key, value for a mapping."""

    kind: NodeKind
    start: int
    end: int
    column: int
    flow: bool = False
    style: str | None = None
    anchor: str | None = None
    children: list[Node] = field(default_factory=list)

    @property
    def is_block_collection(self) -> bool:
        return self.kind in ("mapping", "sequence") and not self.flow

    @property
    def is_empty_plain(self) -> bool:
        """`key:` with nothing after it: libyaml's empty scalar has no text."""
        return self.kind == "scalar" and self.start == self.end


class LayoutError(Exception):
    """The text has no layout the splicer can use (it is not YAML libyaml reads)."""


def layout_of(text: str) -> Node | None:
    """The node tree of the one YAML document in `text` (no BOM), or None when it is empty."""
    parser = CParser(text)
    stack: list[Node] = []
    roots: list[Node] = []
    try:
        while True:
            event: Any = parser.get_event()
            kind = type(event)
            if kind is ScalarEvent:
                node = Node(
                    "scalar",
                    event.start_mark.index,
                    event.end_mark.index,
                    event.start_mark.column,
                    style=event.style or None,
                    anchor=event.anchor,
                )
                if node.style in ("|", ">"):
                    node.end = _block_scalar_end(text, node.start, node.end)
                (stack[-1].children if stack else roots).append(node)
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                stack.append(
                    Node(
                        "mapping" if kind is MappingStartEvent else "sequence",
                        event.start_mark.index,
                        event.start_mark.index,
                        event.start_mark.column,
                        flow=bool(event.flow_style),
                        anchor=event.anchor,
                    )
                )
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                node = stack.pop()
                if node.flow:
                    node.end = event.end_mark.index
                else:  # libyaml ends a block collection at the next token: use its last child
                    node.end = node.children[-1].end
                (stack[-1].children if stack else roots).append(node)
            elif kind is AliasEvent:
                node = Node(
                    "alias",
                    event.start_mark.index,
                    event.end_mark.index,
                    event.start_mark.column,
                    anchor=event.anchor,
                )
                (stack[-1].children if stack else roots).append(node)
            elif kind is StreamEndEvent:
                break
    except YAMLError as error:
        raise LayoutError(str(error)) from None
    finally:
        parser.dispose()
    return roots[0] if roots else None


def _block_scalar_end(text: str, start: int, end: int) -> int:
    """The end of a block scalar's last line of content: libyaml's mark lies after the blank
    lines that follow it, which are the scalar's only with "keep" chomping (`|+`)."""
    header = _BLOCK_HEADER.match(text, start)
    if header is not None and "+" in header.group(1):
        return end
    position = end
    while position > start:
        line_start = line_start_of(text, _before_break(text, position))
        if line_start <= start or text[line_start:position].strip(" \t\r\n\x85\u2028\u2029"):
            return position
        position = line_start
    return position


def _before_break(text: str, position: int) -> int:
    """`position` moved back over the line break just before it, if there is one."""
    if text.endswith("\r\n", 0, position):
        return position - 2
    if position > 0 and text[position - 1] in "\n\r\x85\u2028\u2029":
        return position - 1
    return position


def line_start_of(text: str, offset: int) -> int:
    """The offset of the start of the line holding `offset`."""
    position = offset
    while position > 0 and text[position - 1] not in "\n\r\x85\u2028\u2029":
        position -= 1
    return position


def line_end_of(text: str, offset: int) -> int:
    """The offset just after the line break ending the line holding `offset` (or the end)."""
    found = LINE_BREAK.search(text, offset)
    return found.end() if found is not None else len(text)


def is_blank_or_comment(line: str) -> bool:
    """A line that holds no YAML content: only spaces, or a comment."""
    stripped = line.strip(" \t\r\n\x85\u2028\u2029")
    return not stripped or stripped.startswith("#")


def indentation(line: str) -> int:
    """The number of spaces a line starts with."""
    return len(line) - len(line.lstrip(" "))

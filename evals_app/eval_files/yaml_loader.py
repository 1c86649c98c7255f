"""A strict, bounded YAML reader: YAML 1.2 core scalars, no duplicate keys, no unknown tags.

It builds plain Python data (dict, list, str, int, float, bool, None) straight from libyaml's
event stream in one iterative pass. Working from events, rather than PyYAML's composed node
graph, is what lets every limit hold *before* memory is spent: libyaml's own C composer recurses
once per nesting level (and crashes on very deep input), and alias expansion is only visible
while building. It is also several times faster than `yaml.load(..., CSafeLoader)`, whose
Python-side constructor dominates the time. See docs/formats.md, "What is refused".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from yaml import MarkedYAMLError, YAMLError
from yaml._yaml import CParser
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from .errors import EvalFileError

MAX_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 64
MAX_ALIAS_EXPANSION = 1_000_000

_TAG = "tag:yaml.org,2002:"
_CORE_TAGS = {f"{_TAG}{name}" for name in ("str", "int", "float", "bool", "null", "seq", "map")}

# YAML 1.2.2 core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution).
_NULL = {"", "~", "null", "Null", "NULL"}
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT10 = re.compile(r"[-+]?[0-9]+\Z")
_INT8 = re.compile(r"0o[0-7]+\Z")
_INT16 = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_INF = re.compile(r"[-+]?\.(?:inf|Inf|INF)\Z")
_NAN = {".nan", ".NaN", ".NAN"}
# A plain scalar can only be something other than a string if it starts with one of these.
_NON_STRING_STARTS = frozenset("0123456789+-.~nNtTfF")


def resolve_plain_scalar(value: str) -> Any:
    """The value of an untagged plain scalar under the YAML 1.2 core schema."""
    if value and value[0] not in _NON_STRING_STARTS:
        return value
    if value in _NULL:
        return None
    if value in _BOOL:
        return _BOOL[value]
    if _INT10.match(value):
        return int(value)
    if _INT8.match(value):
        return int(value[2:], 8)
    if _INT16.match(value):
        return int(value[2:], 16)
    if _FLOAT.match(value):
        return float(value)
    if _INF.match(value):
        return float("-inf") if value[0] == "-" else float("inf")
    if value in _NAN:
        return float("nan")
    return value


def core_tag_of_plain_scalar(value: str) -> str:
    """The core-schema tag a plain scalar resolves to (the dumper quotes strings that need it)."""
    try:
        return _TAG + _type_name(resolve_plain_scalar(value))
    except ValueError:  # an integer too long for Python to convert is still not a string
        return _TAG + "int"


@dataclass
class LoadedYaml:
    """A parsed document and, when asked for, the line (1-based) of every key and list item."""

    data: Any
    key_lines: dict[int, dict[str, int]] = field(default_factory=dict)
    item_lines: dict[int, list[int]] = field(default_factory=dict)

    def line_of(self, path: tuple[str | int, ...]) -> int | None:
        """The line of the deepest element of `path` (keys and list indexes) that was found."""
        node: Any = self.data
        line = None
        for step in path:
            if isinstance(node, dict) and isinstance(step, str) and step in node:
                line = self.key_lines.get(id(node), {}).get(step, line)
            elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
                lines = self.item_lines.get(id(node), [])
                line = lines[step] if step < len(lines) else line
            else:
                break
            node = node[step]
        return line


class _Frame:
    __slots__ = ("container", "anchor", "line", "size", "key", "key_line")

    def __init__(
        self, container: dict[str, Any] | list[Any], anchor: str | None, line: int
    ) -> None:
        self.container = container
        self.anchor = anchor
        self.line = line
        self.size = 1
        self.key: Any = _NO_KEY
        self.key_line = 0


_NO_KEY = object()


def load_yaml(source: bytes | str, *, track_lines: bool = False) -> LoadedYaml:
    """Parse one YAML document; raise EvalFileError (with a line where known) on bad input."""
    text = _decode(source)
    parser = CParser(text)
    try:
        return _build(parser, track_lines)
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark is not None else None
        column = mark.column + 1 if mark is not None else None
        problem = error.problem or error.context or "invalid YAML"
        raise EvalFileError(f"not valid YAML: {problem}", line=line, column=column) from None
    except YAMLError as error:
        raise EvalFileError(f"not valid YAML: {error}") from None
    finally:
        parser.dispose()


def _decode(source: bytes | str) -> str:
    if isinstance(source, str):
        if len(source) > MAX_BYTES:
            raise EvalFileError(f"file is larger than the limit of {MAX_BYTES // 2**20} MiB")
        # A stored text keeps the file's BOM (it is written back as read); it is no content.
        return source.removeprefix("\ufeff")
    if len(source) > MAX_BYTES:
        raise EvalFileError(f"file is larger than the limit of {MAX_BYTES // 2**20} MiB")
    try:
        text = source.decode("utf-8")
    except UnicodeDecodeError as error:
        line = source[: error.start].count(b"\n") + 1
        raise EvalFileError(
            f"not UTF-8 text (byte {source[error.start]:#04x} at offset {error.start})", line=line
        ) from None
    return text.removeprefix("\ufeff")


def _build(parser: CParser, track_lines: bool) -> LoadedYaml:  # noqa: C901 - one event loop
    loaded = LoadedYaml(data=None)
    anchors: dict[str, tuple[Any, int]] = {}
    stack: list[_Frame] = []
    expanded = 0
    documents = 0
    root: list[Any] = []

    def place(value: Any, size: int, line: int) -> None:
        if not stack:
            root.append(value)
            return
        frame = stack[-1]
        frame.size += size
        container = frame.container
        if isinstance(container, list):
            container.append(value)
            if track_lines:
                loaded.item_lines.setdefault(id(container), []).append(line)
            return
        if frame.key is _NO_KEY:
            # Keys may be numbers or booleans (`score_ranges: {0: …}`), kept as they are
            # (docs/formats.md, "Round trip"); a mapping or a list as a key is refused.
            if isinstance(value, (dict, list)):
                raise EvalFileError(
                    f"mapping keys must be scalars, found {_describe(value)}", line=line
                )
            if value in container:
                raise EvalFileError(f"duplicate key {value!r} in one mapping", line=line)
            frame.key = value
            frame.key_line = line
            return
        container[frame.key] = value
        if track_lines:
            loaded.key_lines.setdefault(id(container), {})[frame.key] = frame.key_line
        frame.key = _NO_KEY

    while True:
        # The stubs type events loosely; each branch below knows its event class.
        event: Any = parser.get_event()
        kind = type(event)
        if kind is ScalarEvent:
            try:
                value = _scalar(event)
            except ValueError as error:  # e.g. an integer with thousands of digits
                raise EvalFileError(str(error), line=event.start_mark.line + 1) from None
            if event.anchor is not None:
                anchors[event.anchor] = (value, 1)
            place(value, 1, event.start_mark.line + 1)
        elif kind is MappingStartEvent or kind is SequenceStartEvent:
            line = event.start_mark.line + 1
            _check_tag(event.tag, "map" if kind is MappingStartEvent else "seq", line)
            if len(stack) >= MAX_DEPTH:
                raise EvalFileError(
                    f"nested deeper than the limit of {MAX_DEPTH} levels", line=line
                )
            container: dict[str, Any] | list[Any] = {} if kind is MappingStartEvent else []
            stack.append(_Frame(container, event.anchor, line))
        elif kind is MappingEndEvent or kind is SequenceEndEvent:
            frame = stack.pop()
            if frame.anchor is not None:
                anchors[frame.anchor] = (frame.container, frame.size)
            place(frame.container, frame.size, frame.line)
        elif kind is AliasEvent:
            line = event.start_mark.line + 1
            if event.anchor not in anchors:
                raise EvalFileError(
                    f"alias *{event.anchor} refers to no anchor before it", line=line
                )
            value, size = anchors[event.anchor]
            expanded += size
            if expanded > MAX_ALIAS_EXPANSION:
                raise EvalFileError(
                    f"aliases expand to more than {MAX_ALIAS_EXPANSION:,} nodes", line=line
                )
            place(value, size, line)
        elif kind is DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise EvalFileError(
                    "more than one YAML document in the file", line=event.start_mark.line + 1
                )
        elif kind is StreamEndEvent:
            break
    loaded.data = root[0] if root else None
    return loaded


def _scalar(event: Any) -> Any:
    tag = event.tag
    value: str = event.value
    if tag is None:
        return resolve_plain_scalar(value) if event.implicit[0] else value
    line = event.start_mark.line + 1
    if tag == "!":
        return value
    _check_tag(tag, None, line)
    resolved = resolve_plain_scalar(value)
    expected = tag.removeprefix(_TAG)
    if expected == "str":
        return value
    if expected == "float" and isinstance(resolved, int) and not isinstance(resolved, bool):
        return float(resolved)
    if expected == _type_name(resolved):
        return resolved
    raise EvalFileError(f"{value!r} is not a valid !!{expected}", line=line)


def _check_tag(tag: str | None, collection: str | None, line: int) -> None:
    if tag is None or tag == "!":
        return
    if tag not in _CORE_TAGS or (collection is not None and tag != f"{_TAG}{collection}"):
        shown = tag.replace(_TAG, "!!")
        raise EvalFileError(
            f"unsupported tag {shown} (only plain YAML data is accepted)", line=line
        )


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "bool", int: "int", float: "float", str: "str"}[type(value)]


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"{_type_name(value)} {value!r}"

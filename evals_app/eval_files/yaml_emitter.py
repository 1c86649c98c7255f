"""A fast YAML writer for plain data that gives byte for byte what `yaml_dumper` gives.

PyYAML's dumper spends most of its time in Python (representer, resolver, serializer), not in
libyaml's emitter. For the data the export writes — dicts with string keys, lists, strings,
ints, floats, booleans and None — this module makes the choices libyaml's emitter makes
(`yaml_emitter_analyze_scalar`, `yaml_emitter_select_scalar_style` and the scalar writers of
libyaml 0.2.5, as PyYAML 6 ships it), including folding long lines at 80 columns, directly and
several times faster. Anything outside what it knows for certain raises `Unsupported`, and
`dump_yaml` then uses PyYAML. Tests compare the two (tests/eval_files/test_yaml_emitter.py).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from yaml.nodes import ScalarNode
from yaml.representer import SafeRepresenter
from yaml.resolver import Resolver

from .merge_keys import is_merge
from .yaml_loader import core_tag_of_plain_scalar


class Unsupported(Exception):
    """The data needs something this writer does not do; PyYAML's dumper does it instead."""


# libyaml's IS_PRINTABLE, minus line feed: anything else makes a scalar "special" (only
# double-quoted, with escapes). Lone surrogates cannot be encoded at all; U+2028 and U+2029
# are printable line breaks, which this writer leaves to PyYAML.
_SPECIAL = re.compile("[^\n\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd]")
_UNSUPPORTED = re.compile("[\u2028\u2029\ud800-\udfff]")
# Either of the two above, in one pass: most text has neither.
_UNUSUAL = re.compile("[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]")
# Characters that cannot start a plain scalar, and those that cannot unless a space follows.
_INDICATORS = frozenset("#,[]{}&*!|>'\"%@`")
_INDICATORS_BEFORE_SPACE = frozenset("?:-")
_DOUBLE_ESCAPED = re.compile(
    '[^\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]|["\\\\]'
)
_ESCAPES = {
    "\0": "0",
    "\x07": "a",
    "\x08": "b",
    "\t": "t",
    "\n": "n",
    "\x0b": "v",
    "\x0c": "f",
    "\r": "r",
    "\x1b": "e",
    '"': '"',
    "\\": "\\",
    "\x85": "N",
    "\u2028": "L",
    "\u2029": "P",
}
# The dumper's line width: libyaml folds plain and quoted scalars past it.
_WIDTH = 80
# Beyond this, folding is left to PyYAML rather than trusted to the simple loop below.
_MAX_LINE = 400_000
# Plain scalars that could be read as something else start with one of these (YAML 1.1 and
# 1.2 implicit types); words starting with a letter that are longer than 5 never are.
_RISKY_STARTS = frozenset("yYnNtTfFoO-+0123456789.<~=")
_RISKY_LETTERS = frozenset("yYnNtTfFoO")
_STR_TAG = "tag:yaml.org,2002:str"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_MAX_SIMPLE_KEY = 128  # bytes; libyaml writes longer keys as `? key`


def emit_yaml(data: Any) -> str:
    """`data` as `dump_yaml` writes it; raises Unsupported for what only PyYAML can write."""
    parts: list[str] = []
    seen: set[int] = set()
    if type(data) is dict and data:
        _mapping(data, 0, parts, seen, True)
    elif type(data) is list and data:
        _sequence(data, 0, parts, seen, True)
    else:
        raise Unsupported("only a non-empty mapping or list is written here")
    return "".join(parts)


def _mapping(
    data: dict[Any, Any], indent: int, out: list[str], seen: set[int], first: bool
) -> None:
    """Write a non-empty block mapping whose keys start at column `indent`.

    `first` is true when the first key goes on the current line (after `- `, or at the start).
    """
    _enter(data, seen)
    pad = " " * indent
    inner = indent + 2
    for key, value in data.items():
        if first:
            first = False
        else:
            out.append(pad)
        # A merge key stays one, unquoted: AgentV merges only a plain `<<` (merge_keys.py).
        written = "<<:" if is_merge(key, value) else _key(key)
        out.append(written)
        kind = type(value)
        if kind is str:
            out.append(" ")
            out.append(_string(value, indent + len(written) + 1, inner))
        elif kind is dict and value:
            out.append("\n")
            out.append(" " * inner)
            _mapping(value, inner, out, seen, True)
        elif kind is list and value:
            # libyaml writes a list inside a mapping without indenting its dashes.
            out.append("\n")
            out.append(pad)
            _sequence(value, indent, out, seen, True)
        else:
            out.append(" ")
            out.append(_other_scalar(value))


def _sequence(data: list[Any], indent: int, out: list[str], seen: set[int], first: bool) -> None:
    """Write a non-empty block sequence whose dashes are at column `indent`."""
    _enter(data, seen)
    pad = " " * indent
    inner = indent + 2
    for item in data:
        if first:
            first = False
            out.append("- ")
        else:
            out.append(pad + "- ")
        kind = type(item)
        if kind is str:
            out.append(_string(item, inner, inner))
        elif kind is dict and item:
            _mapping(item, inner, out, seen, True)
        elif kind is list and item:
            _sequence(item, inner, out, seen, True)
        else:
            out.append(_other_scalar(item))


def _enter(container: Any, seen: set[int]) -> None:
    # PyYAML writes a list or dict that appears twice with an anchor and an alias.
    marker = id(container)
    if marker in seen:
        raise Unsupported("shared or recursive data")
    seen.add(marker)


def _other_scalar(value: Any) -> str:
    """A scalar other than a string, or an empty collection, with its line end."""
    kind = type(value)
    if value is None:
        return "null\n"
    if kind is bool:
        return "true\n" if value else "false\n"
    if kind is int:
        return f"{value}\n"
    if kind is float:
        return _float(value) + "\n"
    if kind is dict and not value:
        return "{}\n"
    if kind is list and not value:
        return "[]\n"
    raise Unsupported(f"cannot write {kind.__name__}")


def _float(value: float) -> str:
    text = str(SafeRepresenter().represent_float(value).value)
    if _plain_tag(text) != _FLOAT_TAG:
        raise Unsupported("a float written with an explicit tag")
    return text


@functools.lru_cache(maxsize=4096)
def _key(key: Any) -> str:
    """A mapping key and its colon: `key:` (keys are never folded). Integer, boolean and null
    keys (a rubric's `score_ranges: {0: …}`) are written as their plain scalars."""
    kind = type(key)
    if kind is not str:
        if kind is int or kind is bool or key is None:
            return _other_scalar(key)[:-1] + ":"
        raise Unsupported("a key that is not a string, a number or a boolean")
    if "\n" in key or "\r" in key or "\x85" in key or _UNSUPPORTED.search(key):
        raise Unsupported("a multi-line key")
    if len(key) > _MAX_SIMPLE_KEY // 4 and len(key.encode()) > _MAX_SIMPLE_KEY:
        raise Unsupported("a long key")
    return _one_line(key, None, 0, _SPECIAL.search(key) is not None) + ":"


def _string(value: str, column: int, indent: int) -> str:
    """A string value starting at `column`, with its line end.

    Multi-line text becomes a `|` block where libyaml allows one; long lines of other styles
    fold onto lines indented by `indent`.
    """
    if len(value) > _MAX_LINE:
        raise Unsupported("a very long string")
    special = False
    if _has_unusual(value):
        if _UNSUPPORTED.search(value):
            raise Unsupported("a Unicode line separator or a lone surrogate")
        special = _SPECIAL.search(value) is not None
    if "\n" not in value:
        return _one_line(value, column, indent, special) + "\n"
    # yaml_dumper asks for a block when the text has a line break and does not end in blank
    # lines; libyaml refuses it for text with special characters or a space before a break.
    if not value.endswith("\n\n") and value.strip("\n"):
        if special or value.endswith(" ") or " \n" in value:
            return _double_quoted(value, column, indent) + "\n"
        return _literal(value, indent)
    if special or " \n" in value or "\n " in value:
        return _double_quoted(value, column, indent) + "\n"
    raise Unsupported("multi-line text in single quotes")


def _has_unusual(value: str) -> bool:
    """Whether `value` has a character `_UNUSUAL` matches; for ASCII text (nearly all), a
    C-speed deletion of the printable characters instead of a regular expression's scan."""
    if value.isascii():
        return bool(value.encode("ascii").translate(None, _PRINTABLE_ASCII))
    return _UNUSUAL.search(value) is not None


# ASCII that `_UNUSUAL` does not match: line feed and the printable characters.
_PRINTABLE_ASCII = b"\n" + bytes(range(0x20, 0x7F))


def _one_line(value: str, column: int | None, indent: int, special: bool) -> str:
    """A string without line feeds: plain, single-quoted or double-quoted, as libyaml picks.

    `column` is where it starts; None for keys, which are never folded. `special`: it has
    characters libyaml only writes escaped.
    """
    if special:
        return _double_quoted(value, column, indent)
    if column is None or column + 2 * len(value) + 2 <= _WIDTH:
        return _unfolded(value)  # too short to fold even quoted: the same wherever it starts
    if _needs_quotes(value):
        return "'" + _fold(value.replace("'", "''"), column + 1, indent, escape_space=False) + "'"
    return _fold(value, column, indent, escape_space=False)


@functools.lru_cache(maxsize=1024)
def _unfolded(value: str) -> str:
    """A short string without special characters or line feeds, plain or single-quoted.

    Cached: the same roles, types and names recur in every case of a repository."""
    return "'" + value.replace("'", "''") + "'" if _needs_quotes(value) else value


def _needs_quotes(value: str) -> bool:
    """Whether the one-line `value` (no special characters) must be single-quoted: it is
    empty, cannot be plain, or would read as something other than a string."""
    return not value or _not_plain(value) or not _reads_as_string(value)


def _not_plain(value: str) -> bool:
    """Whether the non-empty one-line `value` cannot be a plain scalar in block context: it
    starts with an indicator, `---` or `...`, has ": " or " #" inside, ends in ":", or has a
    space at either end. (Substring tests: a regular expression took longer on long lines.)"""
    first = value[0]
    if first in _INDICATORS or first == " " or value[-1] in " :":
        return True
    if first in _INDICATORS_BEFORE_SPACE and (len(value) == 1 or value[1] == " "):
        return True
    return value.startswith(("---", "...")) or ": " in value or " #" in value


def _fold(written: str, column: int, indent: int, *, escape_space: bool) -> str:
    """Break a scalar's text as libyaml does: at a single space once past column 80.

    `written` is the text as it appears between the quotes (if any), starting at `column`.
    Never at the first or last character; in double quotes a space that then starts the
    next line is escaped (`\\ `), elsewhere a break is only taken before a non-space.
    """
    length = len(written)
    if column + length <= _WIDTH + 1:
        return written
    pieces: list[str] = []
    start = 0
    # The first space that could break the line is the one past the width.
    position = written.find(" ", max(_WIDTH + 1 - column, 1))
    while position != -1 and position < length - 1:
        if written[position - 1] != " ":
            following = written[position + 1] == " "
            if escape_space or not following:
                pieces.append(written[start:position])
                pieces.append("\n" + " " * indent + ("\\" if following else ""))
                column = indent + (1 if following else 0)
                start = position + 1
                position = written.find(" ", max(start + _WIDTH + 1 - column, start + 1))
                continue
        position = written.find(" ", position + 1)
    pieces.append(written[start:])
    return "".join(pieces)


def _reads_as_string(value: str) -> bool:
    """Whether the plain scalar `value` reads back as a string in YAML 1.1 and 1.2."""
    first = value[0]
    if first not in _RISKY_STARTS or (first in _RISKY_LETTERS and len(value) > 5):
        return True
    return _plain_tag(value) == _STR_TAG


@functools.lru_cache(maxsize=8192)
def _plain_tag(value: str) -> str:
    """The tag a plain scalar resolves to, as yaml_dumper's resolver sees it (1.1, then 1.2)."""
    tag: str = _RESOLVER.resolve(ScalarNode, value, (True, False))
    return core_tag_of_plain_scalar(value) if tag == _STR_TAG else tag


_RESOLVER = Resolver()


def _double_quoted(value: str, column: int | None, indent: int) -> str:
    written = _DOUBLE_ESCAPED.sub(_escape, value)
    if column is not None:
        written = _fold(written, column + 1, indent, escape_space=True)
    return '"' + written + '"'


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    short = _ESCAPES.get(char)
    if short is not None:
        return "\\" + short
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02X}"
    if code <= 0xFFFF:
        return f"\\u{code:04X}"
    return f"\\U{code:08X}"


def _literal(value: str, indent: int) -> str:
    """A `|` block: lines indented by `indent`, empty lines left empty."""
    header = "|2" if value[0] in " \n" else "|"
    if value.endswith("\n"):
        body = value[:-1]
    else:
        header += "-"
        body = value
    if indent == 0:  # not written by this module (a block is always inside a list or mapping)
        return header + "\n" + body + "\n"
    pad = " " * indent
    # Each line indented, then the empty lines emptied again: a line that is exactly the pad
    # was empty (a line of spaces is longer). Each pass empties every other one of a run.
    text = pad + body.replace("\n", "\n" + pad)
    if text.startswith(pad + "\n"):
        text = text[indent:]
    empty = "\n" + pad + "\n"
    while empty in text:
        text = text.replace(empty, "\n\n")
    return header + "\n" + text + "\n"

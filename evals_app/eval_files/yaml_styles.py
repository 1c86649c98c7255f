"""Writing a changed or new value in its file's style (docs/formats.md, "Round trip").

A changed scalar keeps the style it had (plain, quoted, `|`/`>` block with its chomping) when
the new value can be written so, else takes the nearest style that can; every candidate is
read back with the project's reader before it is used. New mappings and lists are written by
ruamel.yaml with the file's indentation and quoting habits.
"""

from __future__ import annotations

import difflib
import io
import itertools
import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.representer import RoundTripRepresenter
from ruamel.yaml.scalarstring import (
    DoubleQuotedScalarString,
    LiteralScalarString,
    SingleQuotedScalarString,
)

from .errors import EvalFileError
from .json_text import encode_json
from .merge_keys import is_merge
from .yaml_emitter import _needs_quotes  # the project's one answer to "must this be quoted?"
from .yaml_layout import Node
from .yaml_loader import load_yaml

_FLOW_INDICATORS = re.compile(r"[,\[\]{}]")
_MERGE_TAG = "tag:yaml.org,2002:merge"
_CHOMP = re.compile(r"[|>]([0-9]?)([+-]?)([0-9]?)")


@dataclass
class Habits:
    """How a file lays out what it holds, so that new lines look like their neighbours."""

    mapping_indent: int = 2
    sequence_offset: int = 2  # columns from a key to the `-` of its list's items
    dash_gap: int = 2  # columns from `-` to the item's content
    quote: str = "'"  # the quote the file uses when it quotes
    quote_plain: bool = False  # whether it quotes even strings that could be plain
    newline: str = "\n"


def same_value(left: Any, right: Any) -> bool:
    """Equal as data and as the app stores it: key order, int/float/bool and NaN told apart."""
    return encode_json(left) == encode_json(right)


def reads_back(text: str, value: Any) -> bool:
    """Whether `text` (written after `k: `) is read by the project's reader as `value`."""
    try:
        return same_value(load_yaml("k: " + text).data, {"k": value})
    except EvalFileError:
        return False


def plain_text(value: Any) -> str | None:
    """A scalar that is not a string in YAML 1.2 core spelling, or None for a string."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
        return repr(value)
    return None


def double_quoted(value: str) -> str:
    """`value` in double quotes, every character YAML would not take raw escaped."""
    out = ['"']
    for char in value:
        if char in '"\\':
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif char.isprintable() and char not in "\x85\u2028\u2029\ufeff":
            out.append(char)
        elif ord(char) <= 0xFF:
            out.append(f"\\x{ord(char):02x}")
        elif ord(char) <= 0xFFFF:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(f"\\U{ord(char):08x}")
    out.append('"')
    return "".join(out)


def inline_text(value: str, style: str | None) -> str | None:
    """`value` on one line in `style` (None plain, `'`, `"`), or None when it cannot be."""
    if style == '"':
        return double_quoted(value)
    if "\n" in value or not value.isprintable():
        return None
    if style == "'":
        return "'" + value.replace("'", "''") + "'"
    return None if _needs_quotes(value) else value


def block_text(
    value: str, style: str, indent: int, newline: str, source: list[str] | None = None
) -> str | None:
    """`value` as a block scalar: header, line break, lines indented by `indent`, each ending
    in `newline`; None when the value cannot be one (characters only escapes can write). A
    folded (`>`) value breaks its lines where `source`, the lines of the scalar it replaces,
    broke them between words that are still there."""
    if any(not (char.isprintable() or char == "\t") for char in value.replace("\n", "")):
        return None
    if value.endswith("\n\n") or (value == "\n"):
        chomp, body = "+", value[:-1]
    elif value.endswith("\n"):
        chomp, body = "", value[:-1]
    else:
        chomp, body = "-", value
    # The chomping is the one the value needs: a kept indicator would change the value.
    lines = body.split("\n")
    if style == ">":
        lines = _folded_lines(lines, _kept_breaks(source or [], lines))
    if lines and lines[0].startswith((" ", "\t")):
        # It would need an indentation indicator, which counts from the parent's column:
        # the nearest quoted style is simpler and as faithful.
        return None
    indicator = ""
    pad = " " * indent
    written = [pad + line if line else "" for line in lines]
    if body == "":
        written = []
    text = style + indicator + chomp + newline + "".join(line + newline for line in written)
    return text


def _folded_lines(lines: list[str], breaks: dict[int, list[int]]) -> list[str]:
    """The source lines of a folded scalar whose value has `lines`: a break between two
    ordinary lines needs one more blank line in the source (it folds to nothing); line `i`
    is also broken at the spaces at offsets `breaks[i]` (each folds back to its space)."""
    out: list[str] = []
    for index, line in enumerate(lines):
        ordinary = bool(line) and not line.startswith((" ", "\t"))
        if ordinary and index:
            # Find the last line with text before this one: a run of empty lines between two
            # ordinary lines keeps one break fewer than the source has.
            last_text = next((item for item in reversed(out) if item), None)
            if last_text is not None and not last_text.startswith((" ", "\t")):
                out.append("")
        cuts = [-1, *breaks.get(index, []), len(line)]
        out.extend(line[start + 1 : end] for start, end in itertools.pairwise(cuts))
    return out


def _kept_breaks(source: list[str], lines: list[str]) -> dict[int, list[int]]:
    """Where to break the ordinary `lines` of a folded value: at the single spaces between
    two words that the old scalar's `source` lines (indentation removed) broke between, found
    by matching the old words with the new ones, so an edit moves no break around it.

    Only a space between two words with no white space at their edges can be a break: a line
    starting with white space does not fold."""
    old_words: list[str] = []
    old_breaks: list[bool] = []
    folds = [_ordinary(line) for line in source]
    for index, line in enumerate(source):
        words = line.split(" ")
        old_words += words
        # A break that folds to a space: between two ordinary lines.
        folded = folds[index] and index + 1 < len(source) and folds[index + 1]
        old_breaks += [False] * (len(words) - 1) + [folded]
    new_words: list[str] = []
    # Per new word: (line index, offset of the space after it, whether a break may go there).
    places: list[tuple[int, int, bool]] = []
    for index, line in enumerate(lines):
        words = line.split(" ")
        ordinary = _ordinary(line)
        offset = 0
        for number, word in enumerate(words):
            offset += len(word)
            following = words[number + 1] if number + 1 < len(words) else ""
            breakable = ordinary and _bare(word) and _bare(following)
            new_words.append(word)
            places.append((index, offset, breakable))
            offset += 1
    matcher = difflib.SequenceMatcher(None, old_words, new_words, autojunk=False)
    matched = {
        old_start + step: new_start + step
        for old_start, new_start, size in matcher.get_matching_blocks()
        for step in range(size)
    }
    breaks: dict[int, set[int]] = {}
    for old_index, broken in enumerate(old_breaks):
        if not broken:
            continue
        # The break precedes the word after it (a word added at the line's end stays on the
        # line), else follows the word before it (the word after it was replaced or removed).
        if old_index + 1 in matched:
            new_index = matched[old_index + 1] - 1
        elif old_index in matched:
            new_index = matched[old_index]
        else:
            continue
        if new_index >= 0:
            index, offset, breakable = places[new_index]
            if breakable:
                breaks.setdefault(index, set()).add(offset)
    return {index: sorted(offsets) for index, offsets in breaks.items()}


def _ordinary(line: str) -> bool:
    """Whether a folded scalar's line folds: it has text and starts with none of white space."""
    return bool(line) and not line.startswith((" ", "\t"))


def _bare(word: str) -> bool:
    return bool(word) and word == word.strip(" \t")


def scalar_text(
    value: Any,
    old_style: str | None,
    *,
    indent: int,
    newline: str,
    habits: Habits,
    source: list[str] | None = None,
) -> str:
    """The text of a changed scalar that had `old_style`, in that style when the value allows
    it, else the nearest; a block scalar's text ends with a line break. A folded scalar keeps
    the line breaks of its `source` lines (indentation removed) where its words did not
    change, so that a changed word changes one line of the file, not the paragraph."""
    plain = plain_text(value)
    if plain is not None:
        return plain
    if not isinstance(value, str):
        raise TypeError(f"not a scalar: {type(value).__name__}")
    multiline = "\n" in value
    if old_style in ("|", ">"):
        order: list[str | None] = [old_style, "|", '"']
    elif old_style == "'":
        order = ["'", "|", '"'] if multiline else ["'", '"']
    elif old_style == '"':
        order = ['"']
    else:
        order = ["|", habits.quote, '"'] if multiline else [None, habits.quote, '"']
    for style in order:
        if style == ">" and source:
            text = block_text(value, style, indent, newline, source)
            if text is not None and _block_reads_back(text, value, newline):
                return text
        if style in ("|", ">"):
            text = block_text(value, style, indent, newline)
            if text is not None and _block_reads_back(text, value, newline):
                return text
        else:
            text = inline_text(value, style)
            if text is not None and reads_back(text, value):
                return text
    return double_quoted(value)


def _block_reads_back(text: str, value: Any, newline: str) -> bool:
    # The block's lines are indented relative to the file; under `k:` any indentation of at
    # least one column reads the same, so the check holds in place.
    return reads_back(text.replace(newline, "\n"), value)


def flow_text(value: Any, habits: Habits, spaced: bool = False) -> str:
    """A value on one line in flow style (`[a, b]`, `{k: v}`), as a changed flow collection
    is written again."""
    inner = " " if spaced else ""
    if isinstance(value, dict):
        items = ", ".join(
            f"{'<<' if is_merge(key, item) else flow_text(key, habits)}: "
            f"{flow_text(item, habits, spaced)}"
            for key, item in value.items()
        )
        return "{" + inner + items + inner + "}" if items else "{}"
    if isinstance(value, list):
        items = ", ".join(flow_text(item, habits, spaced) for item in value)
        return "[" + inner + items + inner + "]" if items else "[]"
    plain = plain_text(value)
    if plain is not None:
        return plain
    text = inline_text(value, None)
    if text is not None and not _FLOW_INDICATORS.search(text) and reads_back(text, value):
        return text
    quoted = inline_text(value, habits.quote)
    return quoted if quoted is not None else double_quoted(value)


def detect_habits(text: str, root: Node | None) -> Habits:
    """The indentation and quoting a file uses most (defaults where it shows none)."""
    habits = Habits(newline="\r\n" if "\r\n" in text else "\n")
    if root is None:
        return habits
    indents: Counter[int] = Counter()
    offsets: Counter[int] = Counter()
    gaps: Counter[int] = Counter()
    styles: Counter[str] = Counter()
    stack = [root]
    while stack:
        node = stack.pop()
        if node.kind == "mapping" and not node.flow:
            for key, item in zip(node.children[::2], node.children[1::2], strict=True):
                if key.style is None and item.kind == "scalar":
                    styles[item.style or "plain"] += 1
                if item.is_block_collection and not _on_one_line(
                    text, key.start, item.children[0].start
                ):
                    if item.kind == "mapping":
                        indents[item.children[0].column - key.column] += 1
                    else:
                        offsets[_dash_column(text, item.children[0]) - key.column] += 1
        if node.kind == "sequence" and not node.flow:
            for item in node.children:
                dash = _dash_column(text, item)
                if _on_one_line(text, _dash_offset(text, item), item.start):
                    gaps[item.column - dash] += 1
        stack.extend(node.children)
    if indents:
        habits.mapping_indent = max(indents.most_common(1)[0][0], 1)
    if offsets:
        habits.sequence_offset = max(offsets.most_common(1)[0][0], 0)
    if gaps:
        habits.dash_gap = max(gaps.most_common(1)[0][0], 2)
    if styles["'"] + styles['"']:
        habits.quote = "'" if styles["'"] >= styles['"'] else '"'
        habits.quote_plain = styles["'"] + styles['"'] > styles["plain"]
    return habits


def _on_one_line(text: str, start: int, end: int) -> bool:
    """Whether no line break lies between the offsets `start` and `end` (looked for between
    them only: counting the lines from the top, for each node, made a large file's writing
    quadratic)."""
    low, high = sorted((start, end))
    return text.find("\n", low, high) == -1


def _dash_offset(text: str, item: Node) -> int:
    """The offset of the `-` that starts a block sequence's `item`."""
    position = text.rfind("-", 0, item.start)
    return max(position, 0)


def _dash_column(text: str, item: Node) -> int:
    dash = _dash_offset(text, item)
    line_start = max(text.rfind("\n", 0, dash) + 1, 0)
    return dash - line_start


def styled_for_ruamel(value: Any, habits: Habits) -> Any:
    """Plain data as ruamel.yaml's round-trip types, each string in the style the file would
    give it: `|` for several lines, quoted when it must be (or when the file quotes all)."""
    if isinstance(value, dict):
        mapping = CommentedMap()
        for key, item in value.items():
            written = _MergeKey(key) if is_merge(key, item) else styled_for_ruamel(key, habits)
            mapping[written] = styled_for_ruamel(item, habits)
        return mapping
    if isinstance(value, list):
        return CommentedSeq(styled_for_ruamel(item, habits) for item in value)
    if not isinstance(value, str):
        return value
    if "\n" in value and _literal_friendly(value):
        return LiteralScalarString(value)
    plain = inline_text(value, None)
    if plain is not None and not habits.quote_plain:
        return value
    if habits.quote == "'" and inline_text(value, "'") is not None:
        return SingleQuotedScalarString(value)
    return DoubleQuotedScalarString(value)


class _MergeKey(str):
    """A merge key, which ruamel.yaml writes as the plain `<<` (see `emitted_block`)."""

    __slots__ = ()


# Tagged as a merge, `<<` resolves to what it is and needs no quotes (merge_keys.py).
RoundTripRepresenter.add_representer(
    _MergeKey, lambda representer, key: representer.represent_scalar(_MERGE_TAG, "<<")
)


def _literal_friendly(value: str) -> bool:
    """Text ruamel.yaml writes as `|` and reads back the same: lines with text, none starting
    or ending with a space, at most one final line break."""
    lines = value.removesuffix("\n").split("\n")
    return block_text(value, "|", 2, "\n") is not None and all(
        line.strip() and line == line.strip() for line in lines
    )


def emitted_block(value: Any, habits: Habits, column: int) -> str:
    """`value` (a one-key mapping or a one-item list) as block YAML whose first line starts
    at `column` (not indented) and whose other lines are indented for it."""
    writer = YAML(typ="rt")
    writer.width = 1_000_000_000
    writer.allow_unicode = True
    writer.indent(
        mapping=habits.mapping_indent,
        sequence=habits.sequence_offset + habits.dash_gap,
        offset=habits.sequence_offset,
    )
    stream = io.StringIO()
    writer.dump(styled_for_ruamel(value, habits), stream)
    lines = stream.getvalue().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    margin = min((len(line) - len(line.lstrip(" ")) for line in lines if line.strip()), default=0)
    pad = " " * column
    out = []
    for index, line in enumerate(lines):
        line = line[margin:] if line[:margin].strip() == "" else line
        out.append(line if index == 0 or not line else pad + line)
    return "".join(line + habits.newline for line in out)

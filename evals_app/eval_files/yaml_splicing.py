"""A YAML text changed only where its data changed: unchanged nodes keep their bytes.

`splice_yaml` walks the old and new data alongside the text's layout (yaml_layout). In a block
mapping or list, each entry owns its lines: the lines before it (blank lines, its leading
comment, its indentation), its own text, and the comment lines after it that are indented
under it. Entries are matched (keys by key; cases by id; other list items by content, then by
position), copied when equal, spliced into when changed, written anew by ruamel.yaml when new,
and dropped with their lines when gone (docs/formats.md, "Round trip"). What cannot be spliced
raises `CannotSplice`, and the entry that holds it is written anew instead.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from .dialects import ID_KEYS
from .json_text import encode_json
from .yaml_layout import (
    LINE_BREAK,
    Node,
    indentation,
    is_blank_or_comment,
    line_end_of,
    line_start_of,
)
from .yaml_styles import (
    Habits,
    emitted_block,
    flow_text,
    reads_back,
    same_value,
    scalar_text,
)

_BREAKS = "\n\r\x85\u2028\u2029"
_PROPERTIES = re.compile(r"(?:(?:&\S+|!\S*)[ \t]+)+")


class CannotSplice(Exception):
    """This node's change cannot be written into its text; its entry is written anew."""


@dataclass
class Edit:
    """Replace `text[start:end]` with `new`."""

    start: int
    end: int
    new: str


@dataclass
class _Entry:
    """One key-value pair or list item of a block collection and the text it owns."""

    head: int  # where its key or `-` starts
    end: int  # after the line break of its last owned line
    lead_start: int  # where the lines before it that go with it start
    column: int
    key: Node | None
    value: Node


def splice_yaml(
    text: str,
    root: Node,
    old: Any,
    new: Any,
    habits: Habits,
    cases_path: tuple[Any, ...] | None,
    *,
    coarse: bool = False,
    expand_aliases: bool = False,
) -> str:
    """`text` (whose layout is `root` and data `old`) changed to hold `new`. `cases_path`
    names the list of cases, whose items are matched by id; with `coarse`, a changed case is
    written anew whole rather than spliced into; with `expand_aliases`, each entry holding an
    alias is written anew with the value in full (for when a case that holds an anchor was
    deleted, moved after its aliases, or changed)."""
    splicer = _Splicer(text, habits, cases_path, coarse, expand_aliases)
    edit = splicer.rewrite(root, old, new, (), floor=None, parent_column=-habits.mapping_indent)
    if edit is None:
        return text
    return text[: edit.start] + edit.new + text[edit.end :]


class _Splicer:
    def __init__(
        self,
        text: str,
        habits: Habits,
        cases_path: tuple[Any, ...] | None,
        coarse: bool,
        expand_aliases: bool,
    ) -> None:
        self.text = text
        self.habits = habits
        self.cases_path = cases_path
        self.coarse = coarse
        self.expand_aliases = expand_aliases

    def unchanged(self, node: Node, old: Any, new: Any) -> bool:
        """Whether `node`'s text can stay as it is."""
        if self.expand_aliases and _holds_alias(node):
            return False
        return same_value(old, new)

    def rewrite(
        self,
        node: Node,
        old: Any,
        new: Any,
        path: tuple[Any, ...],
        *,
        floor: int | None,
        parent_column: int,
    ) -> Edit | None:
        """The edit that makes `node` (holding `old`) hold `new`, or None when equal."""
        if self.unchanged(node, old, new):
            return None
        if node.kind == "alias":
            raise CannotSplice("an alias of a changed value")  # written out in full instead
        if node.kind == "scalar":
            if isinstance(new, (dict, list)):
                raise CannotSplice("a scalar became a collection")
            return self._scalar(node, new, parent_column)
        if node.flow:
            if not isinstance(new, (dict, list)):
                raise CannotSplice("a collection became a scalar")
            spaced = self.text[node.start + 1 : node.start + 2] == " "
            start = node.start
            properties = _PROPERTIES.match(self.text, start)
            if properties is not None:
                start = properties.end()
            return Edit(start, node.end, flow_text(new, self.habits, spaced))
        if node.kind == "mapping" and isinstance(new, dict) and new:
            return self._collection(node, old, new, path, floor)
        if node.kind == "sequence" and isinstance(new, list) and new:
            return self._collection(node, old, new, path, floor)
        raise CannotSplice("the value changed kind or became empty")

    def _scalar(self, node: Node, new: Any, parent_column: int) -> Edit:
        text = self.text
        newline = self.habits.newline
        properties = _PROPERTIES.match(text, node.start)
        prefix = ""
        if properties is not None:
            # An anchor stays where it was; a tag is dropped (the new value has its own type).
            anchors = [part for part in properties.group(0).split() if part.startswith("&")]
            prefix = "".join(anchor + " " for anchor in anchors)
        old_block = node.style in ("|", ">")
        indent = self._block_indent(node, parent_column)
        source = self._folded_source(node, indent) if node.style == ">" else None
        written = scalar_text(
            new, node.style, indent=indent, newline=newline, habits=self.habits, source=source
        )
        new_block = written[:1] in ("|", ">")
        lead = " " if node.is_empty_plain else ""
        ends_line = node.end > 0 and text[node.end - 1] in _BREAKS
        if new_block:
            if old_block:
                if not ends_line:
                    written = written.removesuffix(newline)
                return Edit(node.start, node.end, lead + prefix + written)
            line_end = _line_end_without_break(text, node.end)
            rest = text[node.end : line_end]
            if rest.strip() and not rest.strip().startswith("#"):
                raise CannotSplice("more on the line after a scalar that becomes a block")
            header, body = written.split(newline, 1)
            has_break = line_end < len(text)
            if has_break:
                line_end = line_end_of(text, line_end)
            else:
                body = body.removesuffix(newline)
            return Edit(node.start, line_end, lead + prefix + header + rest + newline + body)
        if old_block and ends_line:
            written += newline
        elif not old_block and LINE_BREAK.search(text, node.start, node.end):
            written = self._folded_like(node, written, new)
        return Edit(node.start, node.end, lead + prefix + written)

    def _folded_like(self, node: Node, written: str, value: Any) -> str:
        """A one-line scalar folded over lines as wide as the old one's (a single space
        between two words may be a line break in plain and quoted scalars)."""
        lines = LINE_BREAK.split(self.text[line_start_of(self.text, node.start) : node.end])
        width = max(len(line) for line in lines)
        pad = " " * indentation(lines[1]) if len(lines) > 1 else ""
        column = node.start - line_start_of(self.text, node.start)
        out: list[str] = []
        current = ""
        for word in written.split(" "):
            if current and column + len(current) + 1 + len(word) > width and word:
                out.append(current)
                current, column = word, len(pad)
            else:
                current = f"{current} {word}" if current or out else word
        out.append(current)
        folded = (self.habits.newline + pad).join(out)
        if "  " in written or not reads_back(folded.replace(self.habits.newline, "\n"), value):
            return written
        return folded

    def _folded_source(self, node: Node, indent: int) -> list[str]:
        """The lines of a folded scalar's text after its header, `indent` columns removed."""
        first_break = LINE_BREAK.search(self.text, node.start, node.end)
        if first_break is None:
            return []
        body = self.text[first_break.end() : node.end]
        lines = LINE_BREAK.split(body)
        if lines and lines[-1] == "":
            lines.pop()
        return [line[indent:] for line in lines]

    def _block_indent(self, node: Node, parent_column: int) -> int:
        """The indentation of a block scalar's lines: the old one's, else one step in."""
        if node.style in ("|", ">"):
            first_break = LINE_BREAK.search(self.text, node.start, node.end)
            if first_break is not None:
                for line in LINE_BREAK.split(self.text[first_break.end() : node.end]):
                    if line.strip():
                        return indentation(line)
        return max(parent_column, 0) + self.habits.mapping_indent

    def _collection(
        self, node: Node, old: Any, new: Any, path: tuple[Any, ...], floor: int | None
    ) -> Edit:
        entries = self._entries(node, floor)
        is_mapping = node.kind == "mapping"
        if is_mapping:
            old_items = list(old.items())
            new_items = list(new.items())
            sources = _match_keys([key for key, _ in old_items], [key for key, _ in new_items])
        else:
            old_items = list(enumerate(old))
            new_items = list(enumerate(new))
            by_id = path == self.cases_path
            sources = match_items(
                [item_key(item, by_id) for item in old], [item_key(item, by_id) for item in new]
            )
        if len(entries) != len(old_items):
            raise CannotSplice("the layout does not match the data")
        text = self.text
        leads = [text[entry.lead_start : entry.head] for entry in entries]
        gaps = [_blank_prefix(lead) for lead in leads]
        typical_gap = Counter(gaps[1:]).most_common(1)[0][0] if len(gaps) > 1 else ""
        inline = entries[0].lead_start == entries[0].head  # the first entry follows `- ` or such
        column = entries[0].column
        pieces: list[str] = []
        for slot, ((new_key, new_value), source) in enumerate(zip(new_items, sources, strict=True)):
            if source is None:
                lead = typical_gap + " " * column
                own = self._emitted(is_mapping, new_key, new_value, column)
            else:
                entry = entries[source]
                old_key, old_value = old_items[source]
                lead = leads[source]
                if source == 0 and slot != 0:  # its comment lines go with it, its gap not
                    lead = typical_gap + (lead[len(gaps[0]) :] if not inline else " " * column)
                elif slot == 0 and source != 0:
                    lead = gaps[0] + lead[len(gaps[source]) :] if not inline else ""
                own = self._own(entry, is_mapping, old_key, old_value, new_key, new_value, path)
            if slot == 0 and source is None:
                lead = "" if inline else gaps[0] + " " * column
            if pieces and pieces[-1][-1:] not in _BREAKS:  # was the file's last line
                pieces[-1] += self.habits.newline
            pieces.append(lead + own)
        if text[entries[-1].end - 1 : entries[-1].end] not in _BREAKS:  # no final line break
            pieces[-1] = pieces[-1].removesuffix(self.habits.newline)
        start = entries[0].lead_start
        return Edit(start, entries[-1].end, "".join(pieces))

    def _own(
        self,
        entry: _Entry,
        is_mapping: bool,
        old_key: Any,
        old_value: Any,
        new_key: Any,
        new_value: Any,
        path: tuple[Any, ...],
    ) -> str:
        text = self.text
        own = text[entry.head : entry.end]
        if self.unchanged(entry.value, old_value, new_value):
            return own
        child_path = (*path, new_key if is_mapping else "*")
        whole_case = self.coarse and path == self.cases_path
        if not whole_case:
            floor = entry.key.end if entry.key is not None else entry.head + 1
            try:
                edit = self.rewrite(
                    entry.value,
                    old_value,
                    new_value,
                    child_path,
                    floor=floor,
                    parent_column=entry.column,
                )
            except CannotSplice:
                edit = None
            else:
                if edit is None:
                    return own
                if entry.head <= edit.start <= edit.end <= entry.end:
                    ends_with_break = own[-1:] in _BREAKS if own else False
                    spliced = text[entry.head : edit.start] + edit.new + text[edit.end : entry.end]
                    if ends_with_break and spliced[-1:] not in _BREAKS:
                        spliced += self.habits.newline
                    return spliced
        written = self._emitted(is_mapping, new_key, new_value, entry.column)
        if own and own[-1] not in _BREAKS:  # the file's last line had no line break
            written = written.removesuffix(self.habits.newline)
        return written

    def _emitted(self, is_mapping: bool, key: Any, value: Any, column: int) -> str:
        data = {key: value} if is_mapping else [value]
        return emitted_block(data, self.habits, column)

    def _entries(self, node: Node, floor: int | None) -> list[_Entry]:
        """Each entry of a block collection with the text it owns (see the module's doc)."""
        text = self.text
        heads: list[tuple[int, Node | None, Node]]
        if node.kind == "mapping":
            pairs = zip(node.children[::2], node.children[1::2], strict=True)
            heads = [(key.start, key, value) for key, value in pairs]
        else:
            heads = [(self._dash(item), None, item) for item in node.children]
        entries: list[_Entry] = []
        for index, (head, key, value) in enumerate(heads):
            line_start = line_start_of(text, head)
            at_line_start = not text[line_start:head].strip()
            if index == 0:
                if at_line_start and floor is not None and line_start > floor:
                    lead_start = line_end_of(text, floor)
                elif at_line_start and floor is None:
                    lead_start = line_start
                else:
                    lead_start = head
            else:
                if not at_line_start or head < entries[-1].end:
                    raise CannotSplice("two entries on one line")
                lead_start = entries[-1].end
            column = head - line_start
            last = max(value.end, key.end if key is not None else head + 1)
            entries.append(
                _Entry(head, self._owned_end(last, column), lead_start, column, key, value)
            )
        return entries

    def _dash(self, item: Node) -> int:
        """The offset of the `-` before a block list's item."""
        position = item.start - 1
        while position >= 0 and self.text[position] in " \t":
            position -= 1
        if position >= 0 and self.text[position] == "-":
            return position
        if item.is_empty_plain and self.text[item.start : item.start + 1] == "-":
            return item.start
        raise CannotSplice("a list item whose `-` is not right before it")

    def _owned_end(self, last: int, column: int) -> int:
        """After the line holding offset `last - 1`, and after the comment lines that follow
        it indented deeper than `column` (they comment on this entry)."""
        text = self.text
        end = last if last > 0 and text[last - 1] in _BREAKS else line_end_of(text, last)
        position = end
        while position < len(text):
            line_end = line_end_of(text, position)
            line = text[position:line_end]
            if not is_blank_or_comment(line):
                break
            if line.strip(" \t\r\n\x85\u2028\u2029"):
                if indentation(line) <= column:
                    break
                end = line_end
            position = line_end
        return end


def _holds_alias(node: Node) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.kind == "alias":
            return True
        stack.extend(current.children)
    return False


def _line_end_without_break(text: str, offset: int) -> int:
    found = LINE_BREAK.search(text, offset)
    return found.start() if found is not None else len(text)


def _blank_prefix(lead: str) -> str:
    """The blank lines a lead starts with."""
    end = 0
    for found in LINE_BREAK.finditer(lead):
        if lead[end : found.start()].strip(" \t"):
            break
        end = found.end()
    return lead[:end]


def item_key(item: Any, by_id: bool) -> str:
    """What a list item is matched by: a case by its id, anything else by its content."""
    if by_id and isinstance(item, dict):
        for id_key in ID_KEYS:
            if isinstance(item.get(id_key), str):
                return "id:" + item[id_key]
    return "value:" + encode_json(item)


def _match_keys(old_keys: list[Any], new_keys: list[Any]) -> list[int | None]:
    """For each key of the new mapping, the index of the same key in the old one."""
    where = {encode_json(key): index for index, key in enumerate(old_keys)}
    return [where.get(encode_json(key)) for key in new_keys]


def match_items(old_keys: list[str], new_keys: list[str]) -> list[int | None]:
    """For each new list item, the old item it continues (or None when it is new): equal
    runs first, then moved items by key, then changed items in place of the old ones."""
    sources: list[int | None] = [None] * len(new_keys)
    used: set[int] = set()
    replaced: list[tuple[range, range]] = []
    matcher = SequenceMatcher(None, old_keys, new_keys, autojunk=False)
    for tag, old_start, old_end, new_start, new_end in matcher.get_opcodes():
        if tag == "equal":
            for offset in range(old_end - old_start):
                sources[new_start + offset] = old_start + offset
                used.add(old_start + offset)
        elif tag == "replace":
            replaced.append((range(old_start, old_end), range(new_start, new_end)))
    unused: dict[str, list[int]] = {}
    for index, key in enumerate(old_keys):
        if index not in used:
            unused.setdefault(key, []).append(index)
    for index, key in enumerate(new_keys):
        if sources[index] is None and unused.get(key):
            sources[index] = unused[key].pop(0)
            used.add(sources[index])  # type: ignore[arg-type]
    for old_range, new_range in replaced:
        free_old = [index for index in old_range if index not in used]
        free_new = [index for index in new_range if sources[index] is None]
        for old_index, new_index in zip(free_old, free_new, strict=False):
            sources[new_index] = old_index
            used.add(old_index)
    return sources

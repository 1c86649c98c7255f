"""What changed between two versions of a case: its turns, and the prompts they produce.

Plain Python over case mappings (as stored in revisions) and strings: no Django.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any, Generic, Literal, TypeVar

from ...eval_files.case_parts import split_case
from ...eval_files.parts_2026 import TURNS_KEY
from ...eval_files.yaml_dumper import dump_yaml

Op = Literal["equal", "insert", "delete"]
TurnKind = Literal["unchanged", "changed", "added", "removed", "moved"]
# A text's words, each with the white space after it (white space before the first word is a
# token of its own): words are matched, never the spaces between them, which would otherwise
# match across a changed passage and cut it into interleaved pieces.
_WORDS = re.compile(r"^\s+|\S+\s*")


@dataclass(frozen=True)
class Turn:
    """The parts of a message that a diff compares."""

    role: str
    text: str
    files: tuple[str, ...]

    @property
    def signature(self) -> tuple[str, str, tuple[str, ...]]:
        """What makes two turns the same turn."""
        return (self.role, self.text, self.files)


@dataclass(frozen=True)
class TurnChange:
    """One turn in the comparison: unchanged, changed in place, added, removed or moved."""

    kind: TurnKind
    section: str
    old_index: int | None
    new_index: int | None
    old: Turn | None
    new: Turn | None
    words: list[tuple[Op, str]] = field(default_factory=list)

    @property
    def role_changed(self) -> bool:
        """Whether the turn kept its place but changed role."""
        return self.old is not None and self.new is not None and self.old.role != self.new.role

    @property
    def new_index_label(self) -> str:
        """The turn's place in the new version, counted from 1."""
        return str(self.new_index + 1) if self.new_index is not None else ""

    @property
    def files_added(self) -> list[str]:
        """File references the new turn has and the old one had not."""
        old = set(self.old.files) if self.old else set()
        return [path for path in (self.new.files if self.new else ()) if path not in old]

    @property
    def files_removed(self) -> list[str]:
        """File references the old turn had and the new one has not."""
        new = set(self.new.files) if self.new else set()
        return [path for path in (self.old.files if self.old else ()) if path not in new]


@dataclass(frozen=True)
class FieldChange:
    """A case field (outcome, id, …) with its old and new value."""

    name: str
    old: str
    new: str
    words: list[tuple[Op, str]]


@dataclass(frozen=True)
class LineRow:
    """One row of a side-by-side line diff; a side is None where the other side has a line."""

    op: Literal["equal", "insert", "delete", "replace"]
    old: str | None
    new: str | None


def turns_of(document: dict[Any, Any], section: str) -> list[Turn]:
    """The input or expected turns of a case mapping (of any period's spelling)."""
    parts = split_case(document)
    messages = parts.input_messages if section == "input" else parts.expected_messages
    turns = []
    for message in messages:
        content = message.get("content")
        items = content if isinstance(content, list) else [content]
        texts, files = [], []
        for item in items:
            if isinstance(item, str):
                texts.append(item)
            elif isinstance(item, dict) and item.get("type") == "file":
                files.append(_text(item.get("value", "")))
            elif isinstance(item, dict) and isinstance(item.get("value"), str):
                texts.append(item["value"])
            elif item is not None:
                texts.append(_text(item))
        for name, value in message.items():  # tool calls and other keys are part of the turn
            if name not in ("role", "content"):
                texts.append(f"{name}: {_text(value)}")
        turns.append(Turn(str(message.get("role", "")), "\n".join(texts), tuple(files)))
    return turns


def conversation_turns(document: dict[Any, Any]) -> list[Turn] | None:
    """The turns of a conversation test of today's format (`turns`, docs/formats.md "Today's
    tests"), each as its YAML (input, expected output, asserts); [] without any, None when
    `turns` is not a list of mappings (then it is compared as one of the case's fields)."""
    turns = document.get(TURNS_KEY, [])
    if not isinstance(turns, list) or not all(isinstance(turn, dict) for turn in turns):
        return None
    return [Turn("", dump_yaml(turn).rstrip("\n"), ()) for turn in turns]


def conversation_diff(old: dict[Any, Any], new: dict[Any, Any]) -> list[TurnChange]:
    """Input and expected turns of two case mappings, then the turns of a conversation test,
    aligned, with what happened to each."""
    changes: list[TurnChange] = []
    for section in ("input", "expected"):
        changes.extend(_section_diff(section, turns_of(old, section), turns_of(new, section)))
    before, after = conversation_turns(old), conversation_turns(new)
    if before is not None and after is not None:
        # Turn by turn, side by side: one JSON text of every turn hides which turn changed.
        changes.extend(_section_diff("turn", before, after))
    return changes


def field_changes(old: dict[Any, Any], new: dict[Any, Any]) -> list[FieldChange]:
    """The case's own fields that differ: id, outcome, target, evaluators, and the others
    (each named as the newer version spells it)."""
    before_parts, after_parts = split_case(old), split_case(new)
    changes = []
    pairs: list[tuple[str, Any, Any]] = [
        (after_parts.spelling.id_key, before_parts.case_id, after_parts.case_id),
        (after_parts.spelling.outcome_key, before_parts.outcome, after_parts.outcome),
        ("target", before_parts.target, after_parts.target),
        ("evaluators", before_parts.evaluators, after_parts.evaluators),
    ]
    before_others, after_others = before_parts.other_fields(), after_parts.other_fields()
    keys = [*after_others, *(key for key in before_others if key not in after_others)]
    pairs += [(str(key), before_others.get(key), after_others.get(key)) for key in keys]
    if conversation_turns(old) is not None and conversation_turns(new) is not None:
        # Shown turn by turn (conversation_diff).
        pairs = [pair for pair in pairs if pair[0] != TURNS_KEY]
    for name, before_value, after_value in pairs:
        before, after = _text(before_value), _text(after_value)
        if before != after:
            changes.append(FieldChange(name, before, after, word_diff(before, after)))
    return changes


def change_summary(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What changed from one case mapping to the next, in short phrases for a history list:
    `turn 3 added`, `turn 2 text edited`, `turn 1 role user → system`, `outcome changed`…"""
    phrases = []
    for field_change in field_changes(old, new):
        if field_change.name == "id":
            phrases.append(f"id {field_change.old} → {field_change.new}")
        else:
            phrases.append(f"{_FIELD_NAMES.get(field_change.name, field_change.name)} changed")
    for change in conversation_diff(old, new):
        kind = _TURN_NAMES[change.section]
        if change.kind == "added" and change.new_index is not None:
            phrases.append(f"{kind} {change.new_index + 1} added")
        elif change.kind == "removed" and change.old_index is not None:
            phrases.append(f"{kind} {change.old_index + 1} removed")
        elif change.kind == "moved" and change.old_index is not None:
            phrases.append(f"{kind} {change.old_index + 1} moved to {change.new_index_label}")
        elif change.kind == "changed" and change.old and change.new:
            where = f"{kind} {change.new_index_label}"
            if change.old_index != change.new_index and change.old_index is not None:
                phrases.append(f"{kind} {change.old_index + 1} moved to {change.new_index_label}")
            if change.role_changed:
                phrases.append(f"{where} role {change.old.role} → {change.new.role}")
            if change.old.text != change.new.text:
                phrases.append(f"{where} text edited")
            if change.files_added or change.files_removed:
                phrases.append(f"{where} files changed")
    return phrases


# How a history line names a turn of each section of conversation_diff.
_TURN_NAMES = {"input": "turn", "expected": "expected message", "turn": "conversation turn"}
# How a history line names a part; any other key is named as the file spells it.
_FIELD_NAMES = {
    "conversation_id": "conversation id",
    "expected_outcome": "outcome",
    "test_id": "id",
}


def word_diff(old: str, new: str) -> list[tuple[Op, str]]:
    """`new` compared with `old` word by word (whitespace kept), as (op, text) runs: each
    changed passage is all its removed text, then all its added text."""
    old_words, new_words = _WORDS.findall(old), _WORDS.findall(new)
    runs: list[tuple[Op, str]] = []
    matcher = SequenceMatcher(
        None, [word.strip() for word in old_words], [word.strip() for word in new_words], False
    )
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            runs += [("delete", "".join(old_words[i1:i2])), ("insert", "".join(new_words[j1:j2]))]
            continue
        # The same words; the white space after one may differ, and only that is changed.
        for before, after in zip(old_words[i1:i2], new_words[j1:j2], strict=True):
            word = before.strip() if before.strip() else ""
            runs += [
                ("equal", word if before != after else before),
                ("delete", "" if before == after else before[len(word) :]),
                ("insert", "" if before == after else after[len(word) :]),
            ]
    return _grouped(runs)


def _grouped(runs: list[tuple[Op, str]]) -> list[tuple[Op, str]]:
    """The runs with each stretch between two unchanged runs as one removal then one addition."""
    parts: list[tuple[Op, str]] = []
    changed: dict[Op, str] = {"delete": "", "insert": ""}

    def keep(text: str) -> None:
        if text and parts and parts[-1][0] == "equal":
            parts[-1] = ("equal", parts[-1][1] + text)
        elif text:
            parts.append(("equal", text))

    def flush() -> None:
        removed, added = changed["delete"], changed["insert"]
        # White space both sides share at the passage's ends is no change ("here)\n" → "\n").
        lead = trail = ""
        if removed and added:
            lead = _common_space(removed, added)
            removed, added = removed[len(lead) :], added[len(lead) :]
            trail = _common_space(removed[::-1], added[::-1])[::-1]
            removed, added = removed[: len(removed) - len(trail)], added[: len(added) - len(trail)]
        keep(lead)
        if removed:
            parts.append(("delete", removed))
        if added:
            parts.append(("insert", added))
        keep(trail)
        changed["delete"] = changed["insert"] = ""

    for op, text in runs:
        if op != "equal":
            changed[op] += text
        elif text:
            flush()
            keep(text)
    flush()
    return parts


def _common_space(first: str, second: str) -> str:
    """The white space both texts start with."""
    shared = ""
    for one, other in zip(first, second, strict=False):
        if one != other or not one.isspace():
            break
        shared += one
    return shared


def line_diff(old: str, new: str) -> list[LineRow]:
    """Two texts side by side, line by line, changed lines paired where they can be."""
    old_lines, new_lines = old.split("\n"), new.split("\n")
    rows: list[LineRow] = []
    matcher = SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            rows.extend(LineRow("equal", line, line) for line in old_lines[i1:i2])
            continue
        removed, added = old_lines[i1:i2], new_lines[j1:j2]
        for index in range(max(len(removed), len(added))):
            before = removed[index] if index < len(removed) else None
            after = added[index] if index < len(added) else None
            if before is None:
                rows.append(LineRow("insert", None, after))
            elif after is None:
                rows.append(LineRow("delete", before, None))
            else:
                rows.append(LineRow("replace", before, after))
    return rows


T = TypeVar("T")


@dataclass(frozen=True)
class Run(Generic[T]):
    """Consecutive rows of a comparison; `folded` rows are unchanged and hidden until asked for."""

    items: list[T]
    folded: bool = False


def fold_unchanged(
    items: Sequence[T], unchanged: Callable[[T], bool], context: int = 3
) -> list[Run[T]]:
    """`items` in runs, each stretch of unchanged items folded except `context` items next to
    a change (as `diff -U` keeps context lines). Folding fewer than two items hides nothing."""
    runs: list[Run[T]] = []

    def show(part: Sequence[T], folded: bool = False) -> None:
        if not part:
            return
        if runs and not folded and not runs[-1].folded:
            runs[-1].items.extend(part)
        else:
            runs.append(Run(list(part), folded))

    start = 0
    while start < len(items):
        end = start
        same = unchanged(items[start])
        while end < len(items) and unchanged(items[end]) == same:
            end += 1
        if not same:
            show(items[start:end])
        else:
            lead = context if start > 0 else 0
            trail = context if end < len(items) else 0
            if end - start - lead - trail >= 2:
                show(items[start : start + lead])
                show(items[start + lead : end - trail], folded=True)
                show(items[end - trail : end])
            else:
                show(items[start:end])
        start = end
    return runs


def _section_diff(section: str, old: Sequence[Turn], new: Sequence[Turn]) -> list[TurnChange]:
    """Align turns: identical in order, then identical elsewhere (moved), then similar (changed)."""
    pairs: dict[int, int] = {}  # new index -> old index
    matcher = SequenceMatcher(
        None, [t.signature for t in old], [t.signature for t in new], autojunk=False
    )
    for block in matcher.get_matching_blocks():
        pairs.update({block.b + k: block.a + k for k in range(block.size)})
    unmatched_old = [i for i in range(len(old)) if i not in pairs.values()]
    for new_index in range(len(new)):
        if new_index in pairs:
            continue
        same = [i for i in unmatched_old if old[i].signature == new[new_index].signature]
        similar = sorted(
            ((_similarity(old[i], new[new_index]), i) for i in unmatched_old), reverse=True
        )
        if same:
            chosen = same[0]
        elif similar and similar[0][0] >= SIMILAR:
            chosen = similar[0][1]
        else:
            continue
        pairs[new_index] = chosen
        unmatched_old.remove(chosen)
    changes = []
    for new_index, turn in enumerate(new):
        if new_index not in pairs:
            changes.append(TurnChange("added", section, None, new_index, None, turn))
            continue
        old_index = pairs[new_index]
        before = old[old_index]
        if before.signature == turn.signature:
            in_order = _in_order(pairs, new_index)
            kind: TurnKind = "unchanged" if in_order else "moved"
            changes.append(TurnChange(kind, section, old_index, new_index, before, turn))
        else:
            words = word_diff(before.text, turn.text)
            changes.append(
                TurnChange("changed", section, old_index, new_index, before, turn, words)
            )
    # A removed turn is shown where it stood: after the turn that came before it.
    for old_index in sorted(unmatched_old, reverse=True):
        place = next(
            (
                n + 1
                for n, c in enumerate(changes)
                if c.old_index is not None and c.old_index < old_index
            ),
            0,
        )
        changes.insert(place, TurnChange("removed", section, old_index, None, old[old_index], None))
    return changes


SIMILAR = 0.5


def _similarity(old: Turn, new: Turn) -> float:
    return SequenceMatcher(None, old.text, new.text, autojunk=False).ratio()


def _in_order(pairs: dict[int, int], new_index: int) -> bool:
    """Whether a matched turn kept its place relative to the matched turns around it."""
    old_index = pairs[new_index]
    earlier = [pairs[n] for n in pairs if n < new_index]
    later = [pairs[n] for n in pairs if n > new_index]
    return all(o < old_index for o in earlier) and all(o > old_index for o in later)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, indent=2)

"""Glob matching of workspace paths against `guideline_patterns` (docs/formatting.md,
"Resolving a file block", step 6).

`*` and `?` stay within one folder, `**` as a whole path segment spans any number of folders
(including none), `[...]` is a character class (`[!...]` or `[^...]` negated), `\\` escapes the
next character. Dot files and dot folders match like any other name; matching is case-sensitive.

Work is bounded whatever a pattern holds (docs/security.md). A config has at most MAX_PATTERNS
patterns of at most MAX_PATTERN_LENGTH characters. Each pattern is compiled once into a regular
expression that never backtracks into a choice it has made: every `*` and every `**` but the
last is an atomic group that takes the earliest place its following part fits (an earlier
place only leaves more room to what follows, so no other place needs trying), and a character
class is one set of merged ranges. Matching a path therefore costs at most the path's length
times the pattern's, in the regular-expression engine rather than in Python
(`**/**/**/**/**/**/**/**/**/**/x` against a path of 60 folders takes microseconds).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

# The patterns that apply when no `.agentv/config.yaml` sets any (docs/formatting.md).
DEFAULT_GUIDELINE_PATTERNS: tuple[str, ...] = ("**/*.instructions.md",)

# Limits of one config's patterns: real ones are a few short globs; these bound what matching
# a page of files can cost (docs/formatting.md, "Guideline patterns").
MAX_PATTERNS = 10
MAX_PATTERN_LENGTH = 100


class PatternLimitError(ValueError):
    """Patterns beyond MAX_PATTERNS or MAX_PATTERN_LENGTH; `index` is the offending pattern's
    position in the list (0-based), for the caller to name its line or item."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.message = message
        self.index = index


def check_pattern_limits(patterns: Sequence[str]) -> None:
    """Raises PatternLimitError when there are too many patterns or one is too long."""
    for index, pattern in enumerate(patterns):
        if index == MAX_PATTERNS:
            raise PatternLimitError(f"at most {MAX_PATTERNS} guideline patterns are allowed", index)
        if len(pattern) > MAX_PATTERN_LENGTH:
            raise PatternLimitError(
                f"a guideline pattern can be at most {MAX_PATTERN_LENGTH} characters "
                f"(this one has {len(pattern)})",
                index,
            )


def is_guideline(path: str, patterns: Sequence[str]) -> bool:
    """Whether the workspace-relative POSIX `path` matches one of the glob `patterns`."""
    return _is_guideline(path, tuple(patterns))


@functools.lru_cache(maxsize=8192)
def _is_guideline(path: str, patterns: tuple[str, ...]) -> bool:
    # Cached: the cases of a repository refer to the same few files over and over, and the
    # workspace page asks about every file each time it is shown.
    return compile_patterns(patterns).matches(path)


@functools.lru_cache(maxsize=64)
def compile_patterns(patterns: tuple[str, ...]) -> GlobMatcher:
    """A matcher of exactly the paths matched by any of `patterns`.

    Raises PatternLimitError beyond the limits, and ValueError naming the pattern when one of
    them is invalid (a reversed range such as `[z-a]`).
    """
    check_pattern_limits(patterns)
    if not patterns:
        return GlobMatcher(None)
    alternatives = "|".join(f"(?:{_compile(pattern)})" for pattern in patterns)
    return GlobMatcher(re.compile(alternatives))


@dataclass(frozen=True)
class GlobMatcher:
    """Compiled guideline patterns: one regular expression for all of them."""

    expression: re.Pattern[str] | None

    def matches(self, path: str) -> bool:
        """Whether `path` matches one of the patterns."""
        return self.expression is not None and self.expression.fullmatch(path) is not None


# What `*` and `?` match: any character but the folder separator (a line break included).
_NAME_CHARACTER = "[^/]"
_ANY_FOLDERS = "**"


@dataclass(frozen=True)
class _CharacterClass:
    """`[...]`: single characters and ranges, maybe negated."""

    characters: frozenset[str]
    ranges: tuple[tuple[str, str], ...]
    negated: bool

    def expression(self) -> str:
        """The class as a regular expression of one character other than `/`."""
        # Merged into disjoint ranges: a million copies of `0-0` are one range.
        spans = sorted(
            [(ord(c), ord(c)) for c in self.characters]
            + [(ord(low), ord(high)) for low, high in self.ranges]
        )
        merged: list[list[int]] = []
        for low, high in spans:
            if merged and low <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], high)
            else:
                merged.append([low, high])
        body = "".join(
            re.escape(chr(low)) if low == high else f"{re.escape(chr(low))}-{re.escape(chr(high))}"
            for low, high in merged
        )
        return f"[^{body}/]" if self.negated else f"(?!/)[{body}]"


# One character of a name pattern: a literal character, `?` (any character), or a class.
_ANY = None
_Atom = str | _CharacterClass | None


def _atom_expression(atom: _Atom) -> str:
    if atom is _ANY:
        return _NAME_CHARACTER
    if isinstance(atom, str):
        return re.escape(atom)
    return atom.expression()


def _compile(pattern: str) -> str:
    try:
        return _compile_path(pattern)
    except ValueError as error:
        raise ValueError(f"Invalid guideline pattern {pattern!r}: {error}") from None


def _compile_path(pattern: str) -> str:
    # Leading "./" or "/" both mean "from the workspace root", which every path is relative to.
    while pattern.startswith(("./", "/")):
        pattern = pattern[1:] if pattern[0] == "/" else pattern[2:]
    segments = pattern.split("/")
    # A final `**` is the rest of the path; like the regular expression `.*` it replaced, it
    # does not match across a line break.
    ends_with_anything = segments[-1] == _ANY_FOLDERS
    if ends_with_anything:
        segments.pop()
    # "a/**/**/b" is "a/**/b": repeating the step adds no path and only costs time.
    steps: list[str] = []
    for segment in segments:
        if segment != _ANY_FOLDERS or not steps or steps[-1] != _ANY_FOLDERS:
            steps.append(segment)
    # Folder names, each followed by "/" but the last (unless the final `**` follows); the
    # parts between two `**` are blocks, each matched at the first folder it fits.
    blocks: list[str] = [""]
    for index, step in enumerate(steps):
        if step == _ANY_FOLDERS:
            blocks.append("")
        else:
            last = index == len(steps) - 1 and not ends_with_anything
            blocks[-1] += _compile_name(step) + ("" if last else "/")
    expression = blocks[0]
    for index, block in enumerate(blocks[1:], start=1):
        folders = f"(?:{_NAME_CHARACTER}*+/)*"
        if index < len(blocks) - 1:
            expression += f"(?>{folders}?{block})"
        else:  # the last block ends the path: found from the end
            expression += folders + block
    return expression + (".*" if ends_with_anything else "")


def _compile_name(segment: str) -> str:
    """The expression of one folder or file name: pieces of fixed length between stars."""
    pieces: list[list[_Atom]] = [[]]
    i, n = 0, len(segment)
    while i < n:
        char = segment[i]
        i += 1
        if char == "*":
            # A run of stars inside a name ("a**b") is no different from one star.
            while i < n and segment[i] == "*":
                i += 1
            pieces.append([])
        elif char == "?":
            pieces[-1].append(_ANY)
        elif char == "\\" and i < n:
            pieces[-1].append(segment[i])
            i += 1
        elif char == "[":
            character_class, i = _compile_class(segment, i)
            pieces[-1].append(character_class)
        else:
            pieces[-1].append(char)
    expressions = ["".join(_atom_expression(atom) for atom in piece) for piece in pieces]
    if len(pieces) == 1:
        return expressions[0]
    first, *middle, last = expressions
    # Each middle piece at the first place it fits; then the last piece must fit in what is
    # left of the name, exactly at its end (it has a fixed length).
    found = "".join(f"(?>{_NAME_CHARACTER}*?{piece})" for piece in middle)
    width = len(pieces[-1])
    if not width:
        return f"{first}{found}{_NAME_CHARACTER}*+"
    return f"{first}{found}(?={_NAME_CHARACTER}{{{width}}}){_NAME_CHARACTER}*+(?<={last})"


def _compile_class(segment: str, start: int) -> tuple[_Atom, int]:
    """The class opened just before `start`, and where it ends; an unclosed `[` is a literal."""
    i, n = start, len(segment)
    negated = i < n and segment[i] in "!^"
    if negated:
        i += 1
    # Members in order: a character, or None for a "-" that joins its neighbours in a range.
    members: list[str | None] = []
    first = True
    while i < n and (segment[i] != "]" or first):
        char = segment[i]
        escaped = char == "\\" and i + 1 < n
        if escaped:
            i += 1
            char = segment[i]
        next_char = segment[i + 1 : i + 2]
        is_range = char == "-" and not escaped and not first and next_char not in ("", "]")
        members.append(None if is_range else char)
        first = False
        i += 1
    if i >= n:
        return "[", start
    return _character_class(members, negated), i + 1


def _character_class(members: list[str | None], negated: bool) -> _CharacterClass:
    # Read left to right: a member followed by a range dash starts a range with the member
    # after the dash (a second dash there stands for itself), as in "[a-c]", "[!--/]".
    characters: set[str] = set()
    ranges: list[tuple[str, str]] = []
    i = 0
    while i < len(members):
        low = members[i] or "-"
        if i + 1 < len(members) and members[i + 1] is None:
            high = members[i + 2] or "-"  # a range dash is never the last member
            if high < low:
                raise ValueError(f"the range {low}-{high} runs backwards (write {high}-{low})")
            ranges.append((low, high))
            i += 3
        else:
            characters.add(low)
            i += 1
    return _CharacterClass(frozenset(characters), tuple(ranges), negated)

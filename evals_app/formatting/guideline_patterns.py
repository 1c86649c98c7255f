"""Glob matching of workspace paths against `guideline_patterns` (FORMATTING.md, step 6).

`*` and `?` stay within one folder, `**` as a whole path segment spans any number of folders
(including none), `[...]` is a character class (`[!...]` or `[^...]` negated), `\\` escapes the
next character. Dot files and dot folders match like any other name; matching is case-sensitive.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

# The patterns that apply when no `.agentv/config.yaml` sets any (docs/formatting.md).
DEFAULT_GUIDELINE_PATTERNS: tuple[str, ...] = ("**/*.instructions.md",)


def is_guideline(path: str, patterns: Sequence[str]) -> bool:
    """Whether the workspace-relative POSIX `path` matches one of the glob `patterns`."""
    return compile_patterns(tuple(patterns)).fullmatch(path) is not None


@functools.lru_cache(maxsize=64)
def compile_patterns(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """One regex that fully matches exactly the paths matched by any of `patterns`."""
    if not patterns:
        return re.compile(r"(?!)")  # matches nothing
    translated = []
    for pattern in patterns:
        regex = _translate(pattern)
        try:
            re.compile(regex)
        except re.error as error:  # e.g. a reversed range such as "[z-a]"
            raise ValueError(f"Invalid guideline pattern {pattern!r}: {error}") from None
        translated.append(f"(?:{regex})")
    return re.compile("|".join(translated))


def _translate(pattern: str) -> str:
    # Leading "./" or "/" both mean "from the workspace root", which every path is relative to.
    while pattern.startswith(("./", "/")):
        pattern = pattern[1:] if pattern[0] == "/" else pattern[2:]
    segments = pattern.split("/")
    parts: list[str] = []
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
            # "a/**" matches everything under a; "**/b" and "a/**/b" allow zero folders.
            parts.append(".*" if last else "(?:[^/]*/)*")
        else:
            parts.append(_translate_segment(segment) + ("" if last else "/"))
    return "".join(parts)


def _translate_segment(segment: str) -> str:
    out: list[str] = []
    i, n = 0, len(segment)
    while i < n:
        char = segment[i]
        i += 1
        if char == "*":
            # A run of stars inside a name ("a**b") is no different from one star.
            while i < n and segment[i] == "*":
                i += 1
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "\\" and i < n:
            out.append(re.escape(segment[i]))
            i += 1
        elif char == "[":
            translated, i = _translate_class(segment, i)
            out.append(translated)
        else:
            out.append(re.escape(char))
    return "".join(out)


def _translate_class(segment: str, start: int) -> tuple[str, int]:
    """Translate the class opened just before `start`; an unclosed `[` is a literal."""
    i, n = start, len(segment)
    negate = i < n and segment[i] in "!^"
    if negate:
        i += 1
    members: list[str] = []
    first = True
    while i < n and (segment[i] != "]" or first):
        char = segment[i]
        escaped = char == "\\" and i + 1 < n
        if escaped:
            i += 1
            char = segment[i]
        # "-" between two members is a range; every other character is escaped as a literal.
        next_char = segment[i + 1 : i + 2]
        is_range = char == "-" and not escaped and not first and next_char not in ("", "]")
        members.append("-" if is_range else re.escape(char))
        first = False
        i += 1
    if i >= n:
        return re.escape("["), start
    body = "".join(members)
    # A class never matches "/", which separates folders.
    return f"(?!/)[{'^' if negate else ''}{body}]", i + 1

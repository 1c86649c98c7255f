"""The guideline matcher agrees with the regular-expression translation it replaced.

The translation below is the former implementation, kept here as the reference for the
patterns' meaning: it is exact, but Python's backtracking regex engine takes exponential time
on patterns such as `**/**/**/x` against deep paths, so the app no longer uses it.
"""

from __future__ import annotations

import re
import time
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evals_app.formatting.guideline_patterns import compile_patterns, is_guideline


def reference_regex(pattern: str) -> re.Pattern[str]:
    """The former translation of one glob into a regular expression (raises re.error)."""
    with warnings.catch_warnings():
        # "[a--b]" reads as a set difference to future Python versions; today it is a range.
        warnings.simplefilter("ignore", FutureWarning)
        return re.compile(_translate(pattern))


def _translate(pattern: str) -> str:
    while pattern.startswith(("./", "/")):
        pattern = pattern[1:] if pattern[0] == "/" else pattern[2:]
    segments = pattern.split("/")
    parts: list[str] = []
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
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
        next_char = segment[i + 1 : i + 2]
        is_range = char == "-" and not escaped and not first and next_char not in ("", "]")
        members.append("-" if is_range else re.escape(char))
        first = False
        i += 1
    if i >= n:
        return re.escape("["), start
    body = "".join(members)
    return f"(?!/)[{'^' if negate else ''}{body}]", i + 1


# Few characters, so that patterns and paths often meet: every glob character, a range dash,
# the folder separator, a dot, a line break, and a character above the ASCII range.
PATTERN_ALPHABET = "ab-z*?[]!^\\/.\né"
PATH_ALPHABET = "ab-z*?[]!^\\/.\né"
patterns = st.text(PATTERN_ALPHABET, max_size=12)
paths = st.text(PATH_ALPHABET, max_size=14)


def pattern_like(path: str) -> st.SearchStrategy[str]:
    """Patterns built from a path by replacing some of its folders and letters with globs,
    so that matches are frequent rather than rare."""
    folders = path.split("/")
    return st.lists(
        st.one_of(
            st.sampled_from(["**", "*", "?", "[a-z]", "[!b]", "a*", "*a*b", "[]-]", "\\*"]),
            st.sampled_from(folders),
        ),
        max_size=6,
    ).map("/".join)


def assert_answers_like_its_regex(pattern: str, path: str) -> None:
    try:
        regex = reference_regex(pattern)
    except re.error:
        with pytest.raises(ValueError, match="Invalid guideline pattern"):
            compile_patterns((pattern,))
        return
    assert is_guideline(path, [pattern]) is (regex.fullmatch(path) is not None)


@settings(max_examples=1500, deadline=None)
@given(pattern=patterns, path=paths)
def test_any_pattern_matches_the_same_paths_as_its_regex(pattern: str, path: str) -> None:
    assert_answers_like_its_regex(pattern, path)


@settings(max_examples=1000, deadline=None)
@given(data=st.data(), path=paths)
def test_patterns_made_from_the_path_match_like_their_regex(data: st.DataObject, path: str) -> None:
    pattern = data.draw(pattern_like(path))
    other_path = data.draw(st.sampled_from([path, path + "/a", "a/" + path, path[:-1]]))

    assert_answers_like_its_regex(pattern, other_path)


@settings(max_examples=300, deadline=None)
@given(chosen=st.lists(patterns, max_size=3), path=paths)
def test_several_patterns_match_what_any_of_their_regexes_matches(
    chosen: list[str], path: str
) -> None:
    try:
        regexes = [reference_regex(pattern) for pattern in chosen]
    except re.error:
        return
    expected = any(regex.fullmatch(path) for regex in regexes)

    assert is_guideline(path, chosen) is expected


@pytest.mark.parametrize("last", ["x", "y"])
def test_stacked_double_stars_answer_at_once_on_a_deep_path(last: str) -> None:
    # The regex translation takes tens of seconds here; the bound is loose for slow machines
    # (the benchmark holds the real target: under a millisecond).
    pattern = "/".join(["**"] * 10 + ["x"])
    path = "/".join(["folder"] * 60 + [last])
    start = time.perf_counter()

    matched = is_guideline(path, [pattern])

    assert matched is (last == "x")
    assert time.perf_counter() - start < 0.05


def test_many_stars_in_a_name_answer_at_once_on_a_long_name() -> None:
    pattern = "*a" * 20 + "*b"
    start = time.perf_counter()

    matched = is_guideline("a" * 1000, [pattern])

    assert not matched
    assert time.perf_counter() - start < 0.05

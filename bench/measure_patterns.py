"""Guideline matching at its worst: stacked `**` against a deep path, and the worst patterns the
form accepts over a page of 1,000 files of the longest path the path rule allows
(docs/formatting.md, "Guideline patterns"; docs/security.md, "Bounded work").

A regular-expression translation of globs backtracks exponentially on stacked `**` (tens of
seconds for that one); the matcher must answer, match or refusal, in well under a millisecond.
"""

from __future__ import annotations

import string
import time

from .figures import Figure, at_most, median, progress, report

PATTERN = "/".join(["**"] * 10 + ["x"])  # **/**/**/**/**/**/**/**/**/**/x
FOLDERS = 60
TARGET_MILLISECONDS = 1
PAGE_FILES = 1_000
PAGE_TARGET_MILLISECONDS = 50
# The first page of a worker, before any answer is cached (docs/formatting.md, "Guideline
# patterns"): a few tenths of a second at the limits, far inside gunicorn's 30 s.
FIRST_PAGE_TARGET_MILLISECONDS = 500


def measure_patterns(repeats: int = 200, pages: int = 10, files: int = PAGE_FILES) -> list[Figure]:
    """The stacked `**` figure, then the page figures (`measure_pattern_page`)."""
    return [_measure_stacked_double_stars(repeats), *measure_pattern_page(pages, files)]


def _measure_stacked_double_stars(repeats: int) -> Figure:
    """The median time of matching PATTERN against a 60-folder path that ends in `x` (a match)
    and one that does not (a refusal), each matched `repeats` times; the slower is reported."""
    from evals_app.formatting.guideline_patterns import compile_patterns

    progress("matching stacked ** patterns against a deep path")
    matcher = compile_patterns((PATTERN,))
    folders = "/".join(["folder"] * FOLDERS)
    medians = []
    for path, expected in ((f"{folders}/x", True), (f"{folders}/y", False)):
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            matched = matcher.matches(path)
            times.append((time.perf_counter() - start) * 1000)
            if matched is not expected:
                raise AssertionError(f"{PATTERN} matched {path!r}: {matched}")
        medians.append(median(times))
    return report(
        Figure(
            "guideline_match_stacked_double_stars",
            max(medians),
            "ms",
            at_most(TARGET_MILLISECONDS),
        )
    )


def worst_patterns() -> tuple[str, ...]:
    """As many patterns as a config may hold, each as long as allowed, each a middle piece
    that almost fits at every place of a long name: the most work per character of a path."""
    from evals_app.formatting.guideline_patterns import MAX_PATTERN_LENGTH, MAX_PATTERNS

    run = "a" * (MAX_PATTERN_LENGTH - 4)
    return tuple(f"*?{run}{last}*" for last in string.ascii_uppercase[:MAX_PATTERNS])


def _longest_path(number: int) -> str:
    """A path as long as the path rule allows (MAX_PATH_LENGTH characters), of names as long
    as it allows (MAX_NAME_BYTES), distinct by `number`."""
    from evals_app.eval_files.paths import MAX_NAME_BYTES, MAX_PATH_LENGTH, check_path

    names, left = [], MAX_PATH_LENGTH - 5
    while left > 0:
        size = min(MAX_NAME_BYTES, left)
        names.append("a" * size)
        left -= size + 1
    path = "/".join(names)[: MAX_PATH_LENGTH - 5] + f"{number:05d}"
    return check_path(path)


def measure_pattern_page(pages: int = 10, files: int = PAGE_FILES) -> list[Figure]:
    """The time the workspace page spends on guideline patterns (one answer per file, as
    `file_rows` asks) with `worst_patterns` over `files` distinct paths of the longest length
    a file may have: the first page, nothing cached, and the median of `pages` more."""
    from evals_app.formatting import guideline_patterns

    progress(f"matching the worst guideline patterns against {files} long paths")
    patterns = worst_patterns()
    paths = [_longest_path(number) for number in range(files)]
    guideline_patterns.compile_patterns.cache_clear()
    guideline_patterns._is_guideline.cache_clear()
    times = []
    for _ in range(pages + 1):
        start = time.perf_counter()
        matched = sum(guideline_patterns.is_guideline(path, patterns) for path in paths)
        times.append((time.perf_counter() - start) * 1000)
        if matched:
            raise AssertionError(f"{matched} paths matched {patterns[0]!r}")
    first, rest = times[0], times[1:]
    return [
        report(
            Figure(
                "guideline_first_page_worst_patterns",
                first,
                "ms",
                at_most(FIRST_PAGE_TARGET_MILLISECONDS),
            )
        ),
        report(
            Figure(
                "guideline_page_worst_patterns",
                median(rest),
                "ms",
                at_most(PAGE_TARGET_MILLISECONDS),
            )
        ),
    ]

"""Guideline matching at its worst: stacked `**` against a deep path (issue 13).

A regular-expression translation of globs backtracks exponentially on such a pattern (tens of
seconds for this one); the matcher must answer, match or refusal, in well under a millisecond.
"""

from __future__ import annotations

import time

from .figures import Figure, at_most, median, progress, report

PATTERN = "/".join(["**"] * 10 + ["x"])  # **/**/**/**/**/**/**/**/**/**/x
FOLDERS = 60
TARGET_MILLISECONDS = 1


def measure_patterns(repeats: int = 200) -> list[Figure]:
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
    return [
        report(
            Figure(
                "guideline_match_stacked_double_stars",
                max(medians),
                "ms",
                at_most(TARGET_MILLISECONDS),
            )
        )
    ]

"""The rules that compare the cases of a suite: duplicate ids across its files and
near-duplicate questions (docs/user-guide.md, "Lint rules")."""

from __future__ import annotations

import zlib
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from evals_app.formatting.lint.rules import Finding, finding
from evals_app.formatting.lint.subject import LintCase
from evals_app.formatting.lint.text import words

# Two questions are near-duplicates when at least this share of their word shingles is common
# (Jaccard similarity of the sets of 2-word shingles).
NEAR_DUPLICATE_THRESHOLD = 0.7
SHINGLE_WORDS = 2
# MinHash with one hash and BANDS masks: two questions land in a common bucket for some band
# with probability 1 - (1 - J)^BANDS (above 0.9999 at the threshold), and only such pairs are
# compared exactly. Each question is compared with at most MAX_COMPARISONS earlier ones per
# band, so a suite of near-identical templated tests stays linear.
BANDS = 8
MAX_COMPARISONS = 20
_MASKS = tuple((0x9E3779B9 * (band + 1)) & 0xFFFFFFFF for band in range(BANDS))


def duplicate_ids(cases: Sequence[LintCase]) -> Iterator[tuple[int, Finding]]:
    """Each case (by its index in `cases`) whose id another case of another file has too."""
    files_by_id: dict[str, list[int]] = defaultdict(list)
    for index, case in enumerate(cases):
        files_by_id[case.case_id].append(index)
    for case_id, indexes in files_by_id.items():
        if len(indexes) < 2:
            continue
        for index in indexes:
            others = sorted({cases[other].eval_path for other in indexes if other != index})
            where = ", ".join(path or "this file" for path in others)
            yield (
                index,
                finding(
                    "duplicate-id",
                    f"The id “{case_id}” is also the id of a case in {where}.",
                    field="id",
                ),
            )


@dataclass(slots=True)
class _Sketch:
    shingles: frozenset[int]
    bands: tuple[int, ...]


def near_duplicates(cases: Sequence[LintCase]) -> Iterator[tuple[int, Finding]]:
    """Each case (by index) whose question is nearly that of another case, naming it."""
    sketches = [_sketch(case.question) for case in cases]
    buckets: dict[tuple[int, int], list[int]] = defaultdict(list)
    for index, sketch in enumerate(sketches):
        if sketch is None:
            continue
        compared: set[int] = set()
        for band, key in enumerate(sketch.bands):
            bucket = buckets[(band, key)]
            for other in bucket[-MAX_COMPARISONS:]:
                if other in compared:
                    continue
                compared.add(other)
                other_sketch = sketches[other]
                assert other_sketch is not None
                similarity = _jaccard(sketch.shingles, other_sketch.shingles)
                if similarity >= NEAR_DUPLICATE_THRESHOLD:
                    yield from _pair(cases, index, other, similarity)
            bucket.append(index)


def _pair(
    cases: Sequence[LintCase], index: int, other: int, similarity: float
) -> Iterator[tuple[int, Finding]]:
    share = f"{similarity:.0%}"
    for this, that in ((index, other), (other, index)):
        yield (
            this,
            finding(
                "near-duplicate",
                f"The question is nearly that of “{cases[that].case_id}” ({share} of its phrases "
                "are the same).",
                field="input",
            ),
        )


def _sketch(question: str) -> _Sketch | None:
    found = words(question)
    if not found:
        return None
    size = min(SHINGLE_WORDS, len(found))
    shingles = frozenset(
        zlib.crc32(" ".join(found[start : start + size]).encode())
        for start in range(len(found) - size + 1)
    )
    bands = tuple(min(value ^ mask for value in shingles) for mask in _MASKS)
    return _Sketch(shingles, bands)


def _jaccard(first: frozenset[int], second: frozenset[int]) -> float:
    common = len(first & second)
    return common / (len(first) + len(second) - common)

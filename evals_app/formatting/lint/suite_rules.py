"""The rules that compare the cases of a suite: duplicate ids across its files and
near-duplicate questions (docs/user-guide.md, "Lint rules")."""

from __future__ import annotations

import zlib
from collections import defaultdict
from collections.abc import Iterator, Sequence
from itertools import pairwise
from typing import NamedTuple

from evals_app.formatting.lint.rules import Finding, finding
from evals_app.formatting.lint.subject import LintCase
from evals_app.formatting.lint.text import words

# Two questions are near-duplicates when at least this share of their word shingles is common
# (Jaccard similarity of the sets of 2-word shingles).
NEAR_DUPLICATE_THRESHOLD = 0.7
# MinHash, bottom-k: each question keeps the SKETCH smallest hashes of its shingles, and the
# similarity of two questions is the Jaccard similarity of their sketches (exact for questions
# of at most SKETCH shingles, an estimate for longer ones). Questions are compared only when
# they share one of their KEYS smallest hashes (nearly sure above the threshold), each with
# at most MAX_COMPARISONS earlier ones per key, so a suite of near-identical templated tests
# stays linear.
SKETCH = 64
KEYS = 8
MAX_COMPARISONS = 8
_MIX = 0x9E3779B1  # an odd constant: a 2-word shingle's hash is first * _MIX ^ second
_MASK = 0xFFFFFFFF


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


def near_duplicates(cases: Sequence[LintCase]) -> Iterator[tuple[int, Finding]]:
    """Each case (by index) whose question is nearly that of another case, naming it."""
    sketches = [_sketch(case.question) for case in cases]
    buckets: dict[int, list[int]] = defaultdict(list)
    for index, sketch in enumerate(sketches):
        if sketch is None:
            continue
        compared: set[int] = set()
        for key in sketch.keys:
            bucket = buckets[key]
            for other in bucket[-MAX_COMPARISONS:]:
                if other in compared:
                    continue
                compared.add(other)
                other_sketch = sketches[other]
                assert other_sketch is not None  # only sketched questions are in a bucket
                similarity = _similarity(sketch, other_sketch)
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


class _Sketch(NamedTuple):
    keys: list[int]  # the smallest hashes, in order
    values: frozenset[int]  # the SKETCH smallest


def _sketch(question: str) -> _Sketch | None:
    """The smallest SKETCH hashes of the question's shingles (each word hashed once, a
    shingle's hash mixed from its words')."""
    found = words(question)
    if not found:
        return None
    hashes = list(map(zlib.crc32, map(str.encode, found)))
    if len(hashes) == 1:
        shingles = set(hashes)
    else:
        shingles = {(first * _MIX ^ second) & _MASK for first, second in pairwise(hashes)}
    smallest = sorted(shingles)[:SKETCH]
    return _Sketch(smallest[:KEYS], frozenset(smallest))


def _similarity(first: _Sketch, second: _Sketch) -> float:
    common = len(first.values & second.values)
    return common / (len(first.values) + len(second.values) - common)

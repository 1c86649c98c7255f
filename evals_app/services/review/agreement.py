"""How far reviewers agree: percent agreement and Cohen's or Fleiss' kappa (docs/user-guide.md,
"Agreement"). Pure Python: the ratings come in as plain mappings.

Only items rated by two or more raters count. Cohen's kappa applies when the same two raters
rated every counted item; otherwise Fleiss' kappa, in its form for a number of raters that may
differ from item to item (each item's agreement is taken over its own pairs of raters).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Literal, TypeVar

Method = Literal["Cohen", "Fleiss"]
Item = TypeVar("Item", bound=Hashable)
Rater = TypeVar("Rater", bound=Hashable)
Category = TypeVar("Category", bound=Hashable)


@dataclass(frozen=True)
class Agreement:
    """The agreement over `items` items: a share from 0 to 1, and kappa (None when chance alone
    explains every answer, as when all raters always gave the same one)."""

    items: int
    percent: float | None
    kappa: float | None
    method: Method | None


NO_ITEMS = Agreement(items=0, percent=None, kappa=None, method=None)


def agreement(ratings: Mapping[Item, Mapping[Rater, Category]]) -> Agreement:
    """The agreement of `ratings`: for each item, each rater's category."""
    rated = {item: dict(by_rater) for item, by_rater in ratings.items() if len(by_rater) >= 2}
    if not rated:
        return NO_ITEMS
    raters = {frozenset(by_rater) for by_rater in rated.values()}
    if len(raters) == 1 and len(next(iter(raters))) == 2:
        return _cohen(list(rated.values()), sorted(next(iter(raters)), key=repr))
    return _fleiss(list(rated.values()))


def _cohen(items: list[dict[Rater, Category]], raters: list[Rater]) -> Agreement:
    first, second = raters
    count = len(items)
    observed = sum(item[first] == item[second] for item in items) / count
    first_counts = Counter(item[first] for item in items)
    second_counts = Counter(item[second] for item in items)
    expected = sum(
        first_counts[category] * second_counts[category] for category in first_counts
    ) / (count * count)
    return Agreement(count, observed, _kappa(observed, expected), "Cohen")


def _fleiss(items: list[dict[Rater, Category]]) -> Agreement:
    shares = []
    totals: Counter[Category] = Counter()
    for item in items:
        counts = Counter(item.values())
        raters = len(item)
        agreeing_pairs = sum(n * (n - 1) for n in counts.values())
        shares.append(agreeing_pairs / (raters * (raters - 1)))
        totals.update(counts)
    observed = sum(shares) / len(shares)
    answers = sum(totals.values())
    expected = sum((n / answers) ** 2 for n in totals.values())
    return Agreement(len(items), observed, _kappa(observed, expected), "Fleiss")


def _kappa(observed: float, expected: float) -> float | None:
    # Rounding may leave 1 - expected a hair above zero where every answer was the same.
    if expected >= 1 - 1e-12:
        return None
    return (observed - expected) / (1 - expected)

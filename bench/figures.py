"""The benchmark's output: one JSON object per line and figure, with its target and verdict."""

from __future__ import annotations

import json
import math
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    """A measured value; `target` reads like `<= 1.5` or `>= 40` (None: for information)."""

    name: str
    value: float
    unit: str
    target: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the value meets the target (always, for figures without one)."""
        if self.target is None:
            return True
        operator, _, bound = self.target.partition(" ")
        limit = float(bound)
        return self.value <= limit if operator == "<=" else self.value >= limit

    def line(self) -> str:
        """The figure as one JSON line: name, value, unit, target, ok."""
        value = round(self.value, 3) if math.isfinite(self.value) else None
        return json.dumps(
            {
                "name": self.name,
                "value": value,
                "unit": self.unit,
                "target": self.target,
                "ok": self.ok,
            }
        )


def at_most(limit: float) -> str:
    """A target: the value may not exceed `limit`."""
    return f"<= {limit:g}"


def at_least(limit: float) -> str:
    """A target: the value must reach `limit`."""
    return f">= {limit:g}"


def report(figure: Figure) -> Figure:
    """Print `figure` on stdout right away (the run may take minutes) and return it."""
    print(figure.line(), flush=True)
    return figure


def progress(message: str) -> None:
    """Say what the benchmark is doing, on stderr (stdout holds only figures)."""
    print(f"bench: {message}", file=sys.stderr, flush=True)


def percentile(values: Sequence[float], fraction: float) -> float:
    """The `fraction` quantile of `values` (nearest rank), e.g. 0.99 for p99."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def median(values: Sequence[float]) -> float:
    """The median, or NaN when there is no value."""
    return statistics.median(values) if values else math.nan

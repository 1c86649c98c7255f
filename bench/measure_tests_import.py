"""Importing other tools' tests (docs/imports.md): 10,000 rows of chat JSONL read, mapped to
AgentV tests and made into the new suite, against the floor of parsing the same lines with
`json.loads` into a list of rows (docs/performance.md, "Importing tests from other tools").

Both run with the cyclic collector paused, as the import runs (`conversion.plain_data`): a
floor slowed by the collector would flatter the ratio. The floor keeps the rows it parses, as
any reader of them must: parsing lines only to drop them costs half as much, since freed
memory is reused at once.

The database write is not part of the figure: it is the same for every import (one
`bulk_create` of the cases) and is measured by the workspace import's figures.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable

from .figures import Figure, at_most, progress, report

TARGET_RATIO = 3
RUNS = 5
WORDS = [
    "order",
    "refund",
    "parcel",
    "invoice",
    "address",
    "delivery",
    "account",
    "password",
    "upgrade",
    "cancel",
    "weekend",
    "support",
    "receipt",
    "warranty",
    "battery",
    "charger",
]


def chat_rows(rows: int, seed: int = 1) -> str:
    """`rows` lines of chat JSONL: a system prompt, one to three exchanges, the last answer."""
    chosen = random.Random(seed)

    def sentence(words: int) -> str:
        return " ".join(chosen.choice(WORDS) for _ in range(words)).capitalize() + "."

    lines = []
    for _ in range(rows):
        messages = [{"role": "system", "content": sentence(12)}]
        for _ in range(chosen.randint(1, 3)):
            messages.append({"role": "user", "content": sentence(chosen.randint(6, 30))})
            messages.append({"role": "assistant", "content": sentence(chosen.randint(10, 60))})
        lines.append(json.dumps({"messages": messages}))
    return "\n".join(lines) + "\n"


def measure_tests_import(rows: int) -> list[Figure]:
    """The import's time over `json.loads` of every line (fastest of RUNS each)."""
    from evals_app.other_tools.base import SourceFiles
    from evals_app.other_tools.conversion import convert, plain_data
    from evals_app.other_tools.suite_text import suite_file

    progress(f"importing {rows:,} rows of chat JSONL")
    text = chat_rows(rows)

    def parse() -> None:
        with plain_data():
            [json.loads(line) for line in text.splitlines()]

    def import_rows() -> None:
        suite_file(convert(SourceFiles({"rows.jsonl": text})))

    floor = _fastest(parse)
    imported = _fastest(import_rows)
    return [
        report(Figure(f"tests_import_{rows}_chat_rows", imported, "s")),
        report(
            Figure(
                "tests_import_over_json_loads",
                imported / floor,
                "x",
                at_most(TARGET_RATIO),
            )
        ),
    ]


def _fastest(work: Callable[[], None]) -> float:
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)

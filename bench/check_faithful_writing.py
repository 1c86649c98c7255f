"""Byte-faithful writing on every eval file of a folder (e.g. a checkout of AgentV's public
repository): `python -m bench.check_faithful_writing FOLDER`. Prints one line per problem and
the counts (files tried, identical, edits minimal)."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from evals_app.eval_files.discovery import discover
from tests.eval_files.faithful_checks import check_file


def main(folder: str) -> int:
    root = Path(folder)
    found = discover(root)
    counts: Counter[str] = Counter()
    for eval_file in found.eval_files:
        if eval_file.contents.format == "csv":
            continue
        counts["tried"] += 1
        original = (root / eval_file.path).read_bytes().decode("utf-8")
        check = check_file(original, eval_file.contents.format)
        counts["identical"] += check.identical
        if not check.identical:
            print(f"not identical: {eval_file.path}")
        if check.edited:
            counts["edited"] += 1
            if check.edit_problem is None:
                counts["edit minimal"] += 1
            else:
                print(f"edit not minimal: {eval_file.path}: {check.edit_problem}")
    print(dict(counts), f"skipped (not eval files or unreadable): {len(found.skipped)}")
    return (
        0
        if counts["tried"] == counts["identical"] and counts["edited"] == counts["edit minimal"]
        else 1
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

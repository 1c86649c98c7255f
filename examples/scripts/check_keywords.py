"""Code evaluator: checks that the candidate answer mentions required keywords.

AgentV runs this script with the evaluation context as JSON on stdin (it reads
the "candidate_answer" field) and expects a JSON result on stdout.

    python3 check_keywords.py --keyword "i < items.length" --keyword "off-by-one"

Each --keyword is matched case-insensitively; the score is the fraction found.
"""

from __future__ import annotations

import argparse
import json
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--keyword", action="append", default=[], help="text that must appear")
    args = parser.parse_args()

    context = json.load(sys.stdin)
    answer = str(context.get("candidate_answer", "")).lower()

    hits = [k for k in args.keyword if k.lower() in answer]
    misses = [k for k in args.keyword if k.lower() not in answer]
    score = len(hits) / len(args.keyword) if args.keyword else 1.0

    json.dump(
        {
            "score": round(score, 3),
            "hits": hits,
            "misses": misses,
            "reasoning": f"{len(hits)} of {len(args.keyword)} required keywords found",
        },
        sys.stdout,
    )
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

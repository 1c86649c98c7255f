"""Every review as JSON lines, for analysis elsewhere (`export_evals --reviews FILE`;
docs/user-guide.md, "Command line")."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from django.db.models import Prefetch

from ...models import CaseReview, ReviewScore, Workspace

BATCH = 2000


def review_lines(workspaces: Iterable[Workspace]) -> Iterator[dict[str, Any]]:
    """One mapping per review of the workspaces' cases, oldest first: the case, the revision it
    reviewed, the reviewer, the decision, the answers by criterion name, the note and the time."""
    scores = Prefetch("scores", queryset=ReviewScore.objects.select_related("criterion"))
    reviews = (
        CaseReview.objects.filter(case__suite__workspace__in=list(workspaces))
        .select_related("case__suite__workspace", "reviewer", "event")
        .prefetch_related(scores)
        .order_by("created_at", "pk")
    )
    for review in reviews.iterator(chunk_size=BATCH):
        case = review.case
        yield {
            "workspace": case.suite.workspace.name,
            "suite": case.suite.path,
            "case": case.case_id,
            "revision": review.revision,
            "reviewer": review.reviewer.username if review.reviewer else None,
            "decision": review.decision,
            "scores": {score.criterion.name: score.value for score in review.scores.all()},
            "note": review.event.note if review.event else "",
            "time": review.created_at.isoformat(),
        }


def write_reviews(workspaces: Iterable[Workspace], path: Path) -> int:
    """Write every review of the workspaces to `path` as JSON lines; returns how many."""
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for line in review_lines(workspaces):
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
            count += 1
    return count

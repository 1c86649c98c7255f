"""`python -m bench.repository_memory OPERATION WORKSPACE [BRANCH]`: one repository operation on
a linked workspace, in a fresh process, and its peak memory.

OPERATION is `check` (a sync check, a dry run), `apply` (a sync of the followed branch) or
`publish` (to BRANCH). As with `bench.export_memory`, the peak is the operation's alone:
tracemalloc's peak of Python allocations while it runs, and the process's peak resident set
size (Django and the operation together). Prints one JSON object: the peaks in bytes, the
seconds it took (slowed by tracemalloc) and what it did.
"""

from __future__ import annotations

import json
import sys
import time
import tracemalloc
from typing import Any

from .export_memory import peak_rss


def main(argv: list[str]) -> None:
    """Run `argv[0]` on the workspace named `argv[1]`; print its peaks and outcome."""
    operation, name, *branch = argv
    import django

    django.setup()
    from evals_app.models import Workspace

    workspace = Workspace.objects.get(name=name)
    tracemalloc.start()
    start = time.perf_counter()
    outcome = _run(operation, workspace, branch)
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        json.dumps({"tracemalloc_peak": peak, "max_rss": peak_rss(), "seconds": seconds, **outcome})
    )


def _run(operation: str, workspace: Any, branch: list[str]) -> dict[str, Any]:
    from evals_app.services.repository.publishing import publish_workspace
    from evals_app.services.repository.sync import sync_repository

    if operation in ("check", "apply"):
        commit, report = sync_repository(workspace, dry_run=operation == "check")
        return {"commit": commit, "changes": report.changes_anything, "lines": report.lines()[:20]}
    if operation == "publish":
        published = publish_workspace(workspace, branch[0])
        return {"commit": published.commit, "changed": len(published.changed)}
    raise SystemExit(f"unknown operation {operation!r}: check, apply or publish")


if __name__ == "__main__":
    main(sys.argv[1:])

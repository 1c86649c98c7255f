"""A sync of an unchanged repository against the parse floor (docs/sync.md).

The generated workspace becomes a git repository; the workspace imported from it is linked
to it, and `sync_evals` then finds every case unchanged: what is left to measure is reading
the commit through git, parsing it and comparing each case with its base.
"""

from __future__ import annotations

import io
import time

from tests.workload.generate import GeneratedWorkspace

from .figures import Figure, at_most, progress, report
from .measure_files import parse_floor
from .measure_repository import link_repository

SYNC_RATIO = 2.0


def measure_sync(workspace: GeneratedWorkspace, name: str) -> list[Figure]:
    """Commit the workspace folder, link `name` (imported from it) and time a sync of it."""
    from django.core.management import call_command

    link_repository(workspace, name)
    progress(f"syncing {workspace.cases} unchanged cases")
    floors, runs = [parse_floor(workspace)], []
    for _ in range(2):
        out = io.StringIO()
        start = time.perf_counter()
        call_command("sync_evals", workspace=name, stdout=out)
        runs.append(time.perf_counter() - start)
        floors.append(parse_floor(workspace))
        if f"unchanged: {workspace.cases}" not in out.getvalue():
            raise RuntimeError(f"the repository did not sync unchanged:\n{out.getvalue()}")
    floor, synced = min(floors), min(runs)
    return [
        report(Figure("sync_unchanged_10k", synced, "s", at_most(round(SYNC_RATIO * floor, 3)))),
        report(Figure("sync_unchanged_vs_parse_floor", synced / floor, "x", at_most(SYNC_RATIO))),
    ]

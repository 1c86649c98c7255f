"""Publish and a sync check on the text-heavy repository, against the parse floor.

The text-heavy workspace (thousands of small eval files) becomes a git repository and the
workspace imported from it is linked to it. Then: a sync check (a dry run) with nothing
changed, and a publish after one case is edited, which writes one file's lines, not the
repository (docs/sync.md, "What is kept byte for byte"; docs/performance.md).
"""

from __future__ import annotations

import copy
import subprocess
import time
from pathlib import Path
from typing import Any

from tests.workload.generate import GeneratedWorkspace

from .figures import Figure, at_most, progress, report
from .measure_files import parse_floor

SYNC_CHECK_RATIO = 1.0
PUBLISH_RATIO = 0.25
RUNS = 3


def link_repository(workspace: GeneratedWorkspace, name: str) -> str:
    """Commit the workspace folder as a git repository and link the workspace `name` (imported
    from it) to it; the commit."""
    from evals_app.models import Workspace

    def git(*arguments: str) -> str:
        return subprocess.run(
            ["git", "-C", str(workspace.root), *arguments],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()

    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-qm", "bench")
    commit = git("rev-parse", "HEAD")
    Workspace.objects.filter(name=name).update(
        repository_path=str(Path(workspace.root).resolve()),
        repository_folder="",
        repository_branch="main",
        base_commit=commit,
    )
    return commit


def timed_check(linked: Any) -> float:
    """The seconds of a sync check (dry run) of the linked workspace, which must find nothing
    changed."""
    from evals_app.services.repository.sync import sync_repository

    start = time.perf_counter()
    _, checked = sync_repository(linked, dry_run=True)
    seconds = time.perf_counter() - start
    if checked.changes_anything:
        raise RuntimeError(f"the check found changes: {checked.lines()[:8]}")
    return seconds


def measure_repository(workspace: GeneratedWorkspace, name: str) -> list[Figure]:
    """Link `name` to its folder's repository; time a sync check with nothing changed and a
    publish after one case is edited (each the fastest of a few, the floor around each)."""
    from evals_app.models import Case, Workspace
    from evals_app.services.cases.editing import save_case
    from evals_app.services.repository.publishing import publish_workspace

    link_repository(workspace, name)
    linked = Workspace.objects.get(name=name)
    floors, checks, publishes = [parse_floor(workspace)], [], []
    progress(f"{workspace.profile}: a sync check and a publish of one edited case")
    for run in range(RUNS):
        checks.append(timed_check(linked))
        floors.append(parse_floor(workspace))
        case = Case.objects.filter(suite__workspace=linked).order_by("pk")[run * 7]
        document = copy.deepcopy(case.document)
        document["bench_note"] = f"edited in run {run}"
        save_case(case, document, case.version, None)
        start = time.perf_counter()
        published = publish_workspace(Workspace.objects.get(pk=linked.pk), f"bench-{run}")
        publishes.append(time.perf_counter() - start)
        if published.commit is None or len(published.changed) != 1:
            raise RuntimeError(f"the publish did not commit one case: {published}")
        linked = Workspace.objects.get(pk=linked.pk)
        floors.append(parse_floor(workspace))
    floor, checked_in, published_in = min(floors), min(checks), min(publishes)
    prefix = workspace.profile.replace("-", "_") + "_"
    figures = [
        Figure(
            "sync_check_unchanged", checked_in, "s", at_most(round(SYNC_CHECK_RATIO * floor, 3))
        ),
        Figure(
            "sync_check_unchanged_vs_parse_floor",
            checked_in / floor,
            "x",
            at_most(SYNC_CHECK_RATIO),
        ),
        Figure("publish_one_edit", published_in, "s", at_most(round(PUBLISH_RATIO * floor, 3))),
        Figure(
            "publish_one_edit_vs_parse_floor", published_in / floor, "x", at_most(PUBLISH_RATIO)
        ),
    ]
    return [report(Figure(prefix + f.name, f.value, f.unit, f.target)) for f in figures]

"""A linked repository of --cases cases (100,000 for the figures in docs/performance.md): the
sync check, a sync of a small upstream change and a publish of one edit, each with its peak
memory in a fresh process; then another user's pages while the workers export and check it
(measure_busy.py).

The short-values workspace is generated, imported and linked to a git repository of its
folder, as `--only sync` does at 10,000 cases.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.workload.generate import GeneratedWorkspace, generate_workspace

from .environment import REPOSITORY, Environment, join
from .figures import Figure, at_most, progress, report
from .measure_busy import measure_busy
from .measure_files import import_workspace, parse_floor
from .measure_repository import link_repository, timed_check

SCALE_WORKSPACE = "bench-scale"
CHECK_RATIO = 1.0  # a check of an unchanged repository, against its parse floor
PEAK_MB = 500  # any of check, sync and publish, in a process of its own (tracemalloc)
RSS_MB = 500  # the same process's peak resident set size, Django included
CASE_ID = re.compile(r"^  - id: (\S+)$", re.MULTILINE)
HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", re.MULTILINE)


def measure_scale(environment: Environment, folder: Path, cases: int, seed: int) -> list[Figure]:
    """Generate, import and link a workspace of `cases` cases; measure the repository's
    operations on it, then the pages of another workspace while the workers run its jobs."""
    progress(f"generating {cases} cases for the repository figures")
    workspace = generate_workspace(folder / "scale", cases=cases, seed=seed)
    progress(f"importing {cases} cases ({workspace.yaml_bytes / 1e6:.0f} MB of YAML)")
    imported = import_workspace(workspace, SCALE_WORKSPACE)
    link_repository(workspace, SCALE_WORKSPACE)
    join(SCALE_WORKSPACE)
    figures = [report(Figure("scale_import_time", imported, "s"))]
    figures += _check(environment, workspace)
    figures += _apply(environment, workspace)
    figures += _publish(environment, workspace)
    figures += measure_busy(environment, folder, SCALE_WORKSPACE, seed)
    return figures


def _check(environment: Environment, workspace: GeneratedWorkspace) -> list[Figure]:
    """The check of the unchanged repository, the faster of two, against the faster of two
    parse floors taken around them; then its memory in a fresh process."""
    from evals_app.models import Workspace

    floors, checks = [parse_floor(workspace)], []
    progress(f"parse floor {floors[0]:.2f} s; checking for changes")
    for _ in range(2):
        checks.append(timed_check(Workspace.objects.get(name=SCALE_WORKSPACE)))
    floors.append(parse_floor(workspace))
    floor, checked_in = min(floors), min(checks)
    memory = _in_fresh_process(environment, "check")
    return [
        report(Figure("scale_parse_floor", floor, "s")),
        report(Figure("scale_check_unchanged", checked_in, "s", at_most(round(floor, 3)))),
        report(Figure("scale_check_vs_parse_floor", checked_in / floor, "x", at_most(CHECK_RATIO))),
        *_memory_figures("scale_check", memory),
    ]


def _apply(environment: Environment, workspace: GeneratedWorkspace) -> list[Figure]:
    """A commit upstream that changes one case; its sync (apply) in a fresh process."""
    path = workspace.root / workspace.first_suite
    text = path.read_text(encoding="utf-8")
    case_id = CASE_ID.findall(text)[1]
    line = f"  - id: {case_id}\n"
    path.write_text(text.replace(line, f"{line}    note: changed upstream\n", 1), encoding="utf-8")
    _git(workspace.root, "commit", "-qam", "one case changed upstream")
    progress(f"syncing one case changed upstream ({case_id})")
    memory = _in_fresh_process(environment, "apply")
    if "updated: 1" not in memory["lines"]:
        raise RuntimeError(f"the sync did not bring in one changed case: {memory['lines']}")
    return [
        report(Figure("scale_sync_one_change", memory["seconds"], "s")),
        *_memory_figures("scale_sync", memory),
    ]


def _publish(environment: Environment, workspace: GeneratedWorkspace) -> list[Figure]:
    """Two publishes of one edited case, each to a branch of its own: one timed here, one in
    a fresh process for its memory; each commit may change only that case's lines."""
    timed_case = _edit_case(0, "timed")
    start = time.perf_counter()
    timed = _publish_here("bench-scale-timed")
    seconds = time.perf_counter() - start
    outside = lines_outside_case(workspace.root, timed, timed_case)
    progress("publishing one more edited case in a fresh process")
    measured_case = _edit_case(2, "measured")
    memory = _in_fresh_process(environment, "publish", "bench-scale-measured")
    if memory["changed"] != 1:
        raise RuntimeError(f"the publish did not commit one case: {memory}")
    outside += lines_outside_case(workspace.root, memory["commit"], measured_case)
    return [
        report(Figure("scale_publish_one_edit", seconds, "s")),
        report(Figure("scale_publish_lines_outside_the_case", outside, "lines", at_most(0))),
        *_memory_figures("scale_publish", memory),
    ]


def _edit_case(index: int, note: str) -> tuple[str, str]:
    """Save one case of the first suite with a key added, as the editor does; its (suite
    path, case id)."""
    from evals_app.models import Case, Suite
    from evals_app.services.cases.editing import save_case

    suite = Suite.objects.filter(workspace__name=SCALE_WORKSPACE).order_by("path").first()
    assert suite is not None
    case = Case.objects.filter(suite=suite).order_by("position")[index]
    document = copy.deepcopy(case.document)
    document["bench_note"] = f"edited, {note}"
    save_case(case, document, case.version, None)
    return suite.path, case.case_id


def _publish_here(branch: str) -> str:
    from evals_app.models import Workspace
    from evals_app.services.repository.publishing import publish_workspace

    progress(f"publishing one edited case to {branch}")
    published = publish_workspace(Workspace.objects.get(name=SCALE_WORKSPACE), branch)
    if published.commit is None or len(published.changed) != 1:
        raise RuntimeError(f"the publish did not commit one case: {published.lines()}")
    return published.commit


def lines_outside_case(root: Path, commit: str, case: tuple[str, str]) -> int:
    """How many lines `commit` of the repository at `root` changes outside the lines of `case`
    (suite path, case id) in its file as committed, and in any other file."""
    path, case_id = case
    numstat = _git(root, "diff", "--numstat", f"{commit}~1", commit).splitlines()
    other_files = sum(
        int(added) + int(deleted)
        for added, deleted, name in (line.split("\t") for line in numstat)
        if name != path
    )
    text = _git(root, "show", f"{commit}:{path}")
    starts = [match.start() for match in CASE_ID.finditer(text)]
    ids = CASE_ID.findall(text)
    first = text.count("\n", 0, starts[ids.index(case_id)]) + 1
    following = ids.index(case_id) + 1
    last = text.count("\n", 0, starts[following]) if following < len(ids) else text.count("\n")
    diff = _git(root, "diff", "-U0", f"{commit}~1", commit, "--", path)
    outside = 0
    for start, count in HUNK.findall(diff):
        # A hunk that only deletes (count 0) sits after its start line.
        lines = range(int(start), int(start) + max(1, int(count or 1)))
        outside += sum(1 for number in lines if not first <= number <= last)
    return other_files + outside


def _in_fresh_process(environment: Environment, operation: str, *rest: str) -> dict[str, Any]:
    """`operation` (and its `rest` of arguments) run by bench.repository_memory."""
    result = subprocess.run(
        [sys.executable, "-m", "bench.repository_memory", operation, SCALE_WORKSPACE, *rest],
        cwd=REPOSITORY,
        env=environment.subprocess_env(),
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise RuntimeError(f"{operation} failed in its own process:\n{result.stderr}")
    measured: dict[str, Any] = json.loads(result.stdout)
    return measured


def _memory_figures(name: str, measured: dict[str, Any]) -> list[Figure]:
    return [
        report(
            Figure(
                f"{name}_peak_memory", measured["tracemalloc_peak"] / 2**20, "MB", at_most(PEAK_MB)
            )
        ),
        report(Figure(f"{name}_peak_rss", measured["max_rss"] / 2**20, "MB", at_most(RSS_MB))),
    ]


def _git(root: Path, *arguments: str) -> str:
    command = ["git", "-C", str(root), "-c", "user.name=bench", "-c", "user.email=bench@localhost"]
    return subprocess.run([*command, *arguments], check=True, capture_output=True, text=True).stdout

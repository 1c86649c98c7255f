"""`python -m bench.run [--quick]`: every performance figure, one JSON line each.

Generates seeded workspaces of both profiles (generate.py), then measures in one run: guideline
matching at its worst; for each profile, the YAML parse floor and import and export against it
(figures named `short_values_…` and `text_heavy_…`); export memory for two sizes; the suite
page and the editor; preview latency under 20 typists on gunicorn, one worker's throughput; the
preview in Chromium; importing other tools' tests; and what lint and token counts cost. Lines go
to stdout as `{"name", "value", "unit", "target", "ok"}`; progress to stderr. Exit status 1 when
a figure misses its target. Everything happens in a scratch folder, removed at the end
(`--keep`: kept). `--only GROUP` (repeatable) measures only those groups of figures, generating
and importing only the workspaces they need.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from tests.workload.generate import TEXT_HEAVY, generate_workspace

from .environment import Environment, join, prepare
from .figures import Figure, progress
from .measure_files import (
    import_workspace,
    measure_export_memory,
    measure_import_and_export,
    report_files,
)
from .measure_import_scale import measure_import_memory, measure_saves_during_import
from .measure_large_suite import measure_large_suite
from .measure_lint import measure_lint
from .measure_list_changes import measure_list_changes
from .measure_pages import measure_pages
from .measure_patterns import measure_patterns
from .measure_queue import measure_queue
from .measure_repository import measure_repository
from .measure_runs import measure_runs
from .measure_scale import measure_scale
from .measure_sync import measure_sync
from .measure_tests_import import measure_tests_import
from .measure_web import measure_web


@dataclass(frozen=True)
class Sizes:
    """How big the run is."""

    cases: int
    small_cases: int  # the second workspace of the memory measurement
    text_heavy_cases: int  # the text-heavy workspace: about four cases an eval file
    page_requests: int
    load_seconds: float
    keystrokes: int
    run_suite_cases: int  # the suite run with AgentV by two workers


FULL = Sizes(
    cases=10_000,
    small_cases=2_500,
    text_heavy_cases=8_000,  # 2,000 eval files
    page_requests=30,
    load_seconds=15,
    keystrokes=20,
    run_suite_cases=200,
)
# Both sizes above one export chunk (500 cases), so the memory comparison still means something.
QUICK = Sizes(
    cases=1_100,
    small_cases=550,
    text_heavy_cases=800,
    page_requests=10,
    load_seconds=3,
    keystrokes=5,
    run_suite_cases=20,
)
# The groups of figures `--only` chooses from, in the order they are measured.
GROUPS = (
    "patterns",  # guideline matching
    "short-values",  # import and export of the short-values workspace
    "text-heavy",  # import and export of the text-heavy workspace
    "sync",  # sync of the unchanged short-values repository
    "repository",  # sync check and publish on the text-heavy repository
    "memory",  # export memory at two sizes
    "pages",  # the suite page and the editor
    "web",  # preview under load, throughput, and in Chromium
    "list-changes",  # duplicating and deleting a case in a suite of --cases cases
    "runs",  # a test and a suite run with AgentV (docs/runs.md)
    "lint",  # the preview's lint and token counts, and a whole suite's lint
    "queue",  # My queue with every case assigned (last: it moves half the cases into review)
    "tests-import",  # other tools' tests: --cases rows of chat JSONL against json.loads
)
WORKSPACE = "bench"
TEXT_HEAVY_WORKSPACE = "bench-text-heavy"
SMALL_WORKSPACE = "bench-small"
LARGE_SUITE_FIGURES = "large-suite"
IMPORT_SCALE_FIGURES = "import-scale"
IMPORT_SCALE_CASES = 100_000  # the import's memory; saves are measured during half as many
SAVES_WORKSPACE = "bench-saves"
SCALE_FIGURES = "scale"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; 0 when every figure meets its target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small run for CI smoke tests")
    parser.add_argument("--cases", type=int, help="cases in the workspace (default 10,000)")
    parser.add_argument(
        "--text-heavy-cases",
        type=int,
        help="cases in the text-heavy workspace of many eval files (default 8,000)",
    )
    parser.add_argument(
        "--database-url",
        help="an empty database to run on (e.g. postgres://…) instead of a scratch SQLite file",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    parser.add_argument("--no-browser", action="store_true", help="skip the Chromium figure")
    parser.add_argument(
        "--only",
        action="append",
        choices=(*GROUPS, LARGE_SUITE_FIGURES, IMPORT_SCALE_FIGURES, SCALE_FIGURES),
        metavar="GROUP",
        help=f"measure only this group of figures (repeatable; one of {', '.join(GROUPS)}; or "
        f"one that no full run measures: {LARGE_SUITE_FIGURES}, the pages of one suite of "
        "--cases cases, a long history, the API's list, the workspace list; "
        f"{IMPORT_SCALE_FIGURES}, the memory of importing --cases cases (default 100,000) and "
        "saves during a worker's import of a .zip of half as many; "
        f"{SCALE_FIGURES}, a linked repository of --cases cases, its sync check, sync and "
        "publish with their memory, and another user's pages while the workers export and "
        "check it)",
    )
    parser.add_argument(
        "--settings",
        default="agentv_web.settings",
        help="Django settings module (default: the app's own), to try a configuration change",
    )
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    if args.cases:
        sizes = replace(sizes, cases=args.cases, small_cases=max(1, args.cases // 4))
    if args.text_heavy_cases:
        sizes = replace(sizes, text_heavy_cases=args.text_heavy_cases)
    folder = Path(tempfile.mkdtemp(prefix="agentv-bench-"))
    progress(f"working in {folder}")
    try:
        environment = prepare(folder, args.settings, args.database_url)
        groups = set(args.only or GROUPS)
        figures = []
        if LARGE_SUITE_FIGURES in groups:
            figures += _run_large_suite(folder, sizes, args.seed)
        if IMPORT_SCALE_FIGURES in groups:
            cases = args.cases or IMPORT_SCALE_CASES
            figures += _run_import_scale(environment, folder, cases, args.seed)
        if SCALE_FIGURES in groups:
            figures += measure_scale(environment, folder, sizes.cases, args.seed)
        figures += _run(environment, folder, sizes, args.seed, groups, browser=not args.no_browser)
    finally:
        if args.keep:
            progress(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    missed = [figure.name for figure in figures if not figure.ok]
    if missed:
        progress(f"missed targets: {', '.join(missed)}")
    return 1 if missed else 0


def _run(
    environment: Environment,
    folder: Path,
    sizes: Sizes,
    seed: int,
    groups: set[str],
    *,
    browser: bool,
) -> list[Figure]:
    figures: list[Figure] = measure_patterns() if "patterns" in groups else []
    if groups & {"short-values", "sync", "memory", "pages", "web", "queue", "lint"}:
        progress(f"generating {sizes.cases} cases")
        workspace = generate_workspace(folder / "workspace", cases=sizes.cases, seed=seed)
        if "short-values" in groups:
            measured = measure_import_and_export(workspace, WORKSPACE, folder / "out" / WORKSPACE)
            figures += report_files(workspace, *measured)
        elif groups & {"sync", "memory", "pages", "web", "queue"}:
            import_workspace(workspace, WORKSPACE)
        if "lint" in groups:
            figures += measure_lint(workspace)
    if groups & {"text-heavy", "repository"}:
        text_heavy = generate_workspace(
            folder / "text-heavy", cases=sizes.text_heavy_cases, seed=seed, profile=TEXT_HEAVY
        )
        if "text-heavy" in groups:
            out = folder / "out" / TEXT_HEAVY_WORKSPACE
            figures += report_files(
                text_heavy, *measure_import_and_export(text_heavy, TEXT_HEAVY_WORKSPACE, out)
            )
        else:
            import_workspace(text_heavy, TEXT_HEAVY_WORKSPACE)
    if "sync" in groups:
        figures += measure_sync(workspace, WORKSPACE)
    if "repository" in groups:
        figures += measure_repository(text_heavy, TEXT_HEAVY_WORKSPACE)
    if "memory" in groups:
        small = generate_workspace(folder / "small", cases=sizes.small_cases, seed=seed + 1)
        import_workspace(small, SMALL_WORKSPACE)
        figures += measure_export_memory(
            environment,
            (SMALL_WORKSPACE, sizes.small_cases),
            (WORKSPACE, sizes.cases),
            folder / "out",
        )
    if groups & {"pages", "web", "queue"}:
        join(WORKSPACE)
    if "pages" in groups:
        figures += measure_pages(workspace, WORKSPACE, sizes.page_requests)
    if "web" in groups:
        figures += measure_web(
            environment,
            workspace,
            WORKSPACE,
            seconds=sizes.load_seconds,
            keystrokes=sizes.keystrokes if browser else 0,
        )
    if "list-changes" in groups:
        figures += measure_list_changes(sizes.cases)
    if "runs" in groups:
        figures += measure_runs(environment, folder, sizes.run_suite_cases)
    if "queue" in groups:
        figures += measure_queue(WORKSPACE, sizes.page_requests)
    if "tests-import" in groups:
        figures += measure_tests_import(sizes.cases)
    return figures


def _run_large_suite(folder: Path, sizes: Sizes, seed: int) -> list[Figure]:
    """The pages of one suite of `sizes.cases` cases, made from a small imported workspace."""
    small = generate_workspace(folder / "workspace", cases=QUICK.cases, seed=seed)
    import_workspace(small, WORKSPACE)
    join(WORKSPACE)
    return measure_large_suite(WORKSPACE, sizes.cases, sizes.page_requests)


def _run_import_scale(
    environment: Environment, folder: Path, cases: int, seed: int
) -> list[Figure]:
    """The import's memory at `cases` cases, and saves in a small workspace while a worker
    imports a .zip of half as many."""
    figures = measure_import_memory(environment, folder, cases, seed)
    small = generate_workspace(folder / "saves", cases=QUICK.cases, seed=seed)
    import_workspace(small, SAVES_WORKSPACE)
    half = max(1, cases // 2)
    return figures + measure_saves_during_import(environment, folder, half, seed, SAVES_WORKSPACE)


if __name__ == "__main__":
    sys.exit(main())

"""Import and export against the parse floor: PyYAML's C loader reading the same YAML files.

The floor is measured before the import and after the import and each export; the export runs
three times; the fastest of each is used. Both sides get as many chances, at the same moments,
so ratios hold on a machine that other work slows down now and then. (An import cannot be
repeated: a second one meets the workspace the first made.) Export memory is measured in fresh
processes (tracemalloc's peak during the export) for two workspace sizes.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import yaml

from tests.workload.generate import GeneratedWorkspace

from .environment import REPOSITORY, Environment
from .figures import Figure, at_most, progress, report

EXPORT_RATIO = 1.5
IMPORT_RATIO = 3.0
# Memory that does not grow with the number of cases: 4 times the cases, at most 1.25 times
# the peak (it would be about 4 times if export held every case).
MEMORY_GROWTH = 1.25
EXPORT_RUNS = 3


def parse_floor(workspace: GeneratedWorkspace) -> float:
    """Seconds PyYAML's C loader takes merely to parse the workspace's suite files."""
    texts = [(workspace.root / path).read_text(encoding="utf-8") for path in workspace.suite_paths]
    start = time.perf_counter()
    for text in texts:
        yaml.load(text, Loader=yaml.CSafeLoader)  # noqa: S506 - the C *safe* loader
    return time.perf_counter() - start


def import_workspace(workspace: GeneratedWorkspace, name: str) -> float:
    """Seconds `import_evals` takes to import the workspace as `name`."""
    from django.core.management import call_command

    return _timed(
        lambda: call_command(
            "import_evals", str(workspace.root), workspace=name, stdout=io.StringIO()
        )
    )


def export_workspace(name: str, out: Path, jobs: int | None = None) -> float:
    """Seconds `export_evals --mode both` takes to export the workspace `name` under `out`
    (`jobs`: its `--jobs`, by default its own default)."""
    from django.core.management import call_command

    return _timed(
        lambda: call_command(
            "export_evals", out=out, workspace=[name], mode="both", jobs=jobs, stdout=io.StringIO()
        )
    )


def measure_import_and_export(
    workspace: GeneratedWorkspace, name: str, out: Path
) -> tuple[float, float, float]:
    """Import then export `workspace`, the floor around each; (floor, import, export) seconds."""
    floors = [parse_floor(workspace)]
    progress(
        f"{workspace.profile}: parse floor {floors[0]:.2f} s; importing {workspace.cases} cases "
        f"in {len(workspace.suite_paths)} eval files"
    )
    imported = import_workspace(workspace, name)
    floors.append(parse_floor(workspace))
    progress(f"imported in {imported:.2f} s; exporting")
    exports = []
    for run in range(EXPORT_RUNS):
        exports.append(export_workspace(name, out / f"run-{run}"))
        floors.append(parse_floor(workspace))
    return min(floors), imported, min(exports)


def report_files(
    workspace: GeneratedWorkspace, floor: float, imported: float, exported: float
) -> list[Figure]:
    """The figures of `measure_import_and_export`, named after the workspace's profile
    (`short_values_import_vs_parse_floor`, `text_heavy_export_time`, …)."""
    prefix = workspace.profile.replace("-", "_") + "_"
    export_target = at_most(round(EXPORT_RATIO * floor, 3))
    import_target = at_most(round(IMPORT_RATIO * floor, 3))
    figures = [
        Figure("eval_files", len(workspace.suite_paths), "files"),
        Figure("cases", workspace.cases, "cases"),
        Figure("yaml_size", workspace.yaml_bytes / 1e6, "MB"),
        Figure("parse_floor", floor, "s"),
        Figure("export_time", exported, "s", export_target),
        Figure("export_vs_parse_floor", exported / floor, "x", at_most(EXPORT_RATIO)),
        Figure("import_time", imported, "s", import_target),
        Figure("import_vs_parse_floor", imported / floor, "x", at_most(IMPORT_RATIO)),
    ]
    return [report(replace(figure, name=prefix + figure.name)) for figure in figures]


def measure_export_memory(
    environment: Environment, small: tuple[str, int], large: tuple[str, int], out: Path
) -> list[Figure]:
    """Peak memory of exporting a small and a large workspace, each in a fresh process."""
    peaks = {}
    for name, cases in (small, large):
        progress(f"measuring export memory for {cases} cases")
        result = subprocess.run(
            [sys.executable, "-m", "bench.export_memory", name, str(out / f"memory-{name}")],
            cwd=REPOSITORY,
            env=environment.subprocess_env(),
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            raise RuntimeError(f"the export for {name} failed:\n{result.stderr}")
        peaks[cases] = json.loads(result.stdout)
    (small_cases, small_peak), (large_cases, large_peak) = sorted(peaks.items())
    growth = large_peak["tracemalloc_peak"] / small_peak["tracemalloc_peak"]
    return [
        report(Figure(f"export_peak_memory_{small_cases}_cases", _mb(small_peak), "MB")),
        report(Figure(f"export_peak_memory_{large_cases}_cases", _mb(large_peak), "MB")),
        report(Figure("export_memory_growth", growth, "x", at_most(MEMORY_GROWTH))),
        report(Figure(f"export_peak_rss_{small_cases}_cases", small_peak["max_rss"] / 2**20, "MB")),
        report(Figure(f"export_peak_rss_{large_cases}_cases", large_peak["max_rss"] / 2**20, "MB")),
    ]


def _mb(peak: dict[str, int]) -> float:
    return peak["tracemalloc_peak"] / 2**20


def _timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start

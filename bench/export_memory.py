"""`python -m bench.export_memory WORKSPACE OUT`: export one workspace and print its peak memory.

Run by the benchmark in a fresh process, with the benchmark's environment, so that the peak is
the export's alone: tracemalloc's peak of Python allocations during the export, and the
process's peak resident set size (Django and the export together).
"""

from __future__ import annotations

import io
import json
import sys
import tracemalloc
from pathlib import Path


def main(argv: list[str]) -> None:
    """Export `argv[0]` to the folder `argv[1]`; print {"tracemalloc_peak", "max_rss"} in bytes."""
    name, out = argv
    import django

    django.setup()
    from django.core.management import call_command

    tracemalloc.start()
    folder = Path(out)
    # In this one process (`--jobs 1`), where tracemalloc sees all of the export's work; with
    # worker processes, each holds one batch of cases and the export a few batches' results.
    call_command(
        "export_evals", out=folder, workspace=[name], mode="both", jobs=1, stdout=io.StringIO()
    )
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(json.dumps({"tracemalloc_peak": peak, "max_rss": peak_rss()}))


def peak_rss() -> int:
    """This process's peak resident set size in bytes. Not `getrusage`: on Linux its maximum
    carries over from the parent that forked the process, before `exec`."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024  # kB
    return 0


if __name__ == "__main__":
    main(sys.argv[1:])

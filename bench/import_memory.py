"""`python -m bench.import_memory FOLDER NAME`: import one workspace folder and print its peak
memory.

Run by the benchmark in a fresh process, with the benchmark's environment, so that the peak is
the import's alone: tracemalloc's peak of Python allocations during `import_evals`, and the
process's peak resident set size (Django and the import together).
"""

from __future__ import annotations

import io
import json
import sys
import tracemalloc

from .export_memory import peak_rss


def main(argv: list[str]) -> None:
    """Import the folder `argv[0]` as the workspace `argv[1]`; print {"tracemalloc_peak",
    "max_rss"} in bytes."""
    folder, name = argv
    import django

    django.setup()
    from django.core.management import call_command

    tracemalloc.start()
    call_command("import_evals", folder, workspace=name, stdout=io.StringIO())
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(json.dumps({"tracemalloc_peak": peak, "max_rss": peak_rss()}))


if __name__ == "__main__":
    main(sys.argv[1:])

"""Running functions in real threads, released together, each on its own database connection."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection, connections

TIMEOUT = 120  # seconds; a deadlock fails the test instead of hanging the suite


def run_together(workers: Sequence[Callable[[], Any]]) -> list[Any]:
    """Call every worker in its own thread, all starting at once; return what each returned,
    or the exception it raised, in the order given."""
    if connection.vendor == "sqlite":
        # Threads share nothing with the test's connection but the database file.
        assert not connection.is_in_memory_db(), "the concurrency tests need a file database"
    barrier = threading.Barrier(len(workers))
    results: list[Any] = [None] * len(workers)

    def run(index: int, worker: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=TIMEOUT)
            results[index] = worker()
        except Exception as error:  # handed to the test, which decides what is expected
            results[index] = error
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=run, args=(index, worker), name=f"worker-{index}")
        for index, worker in enumerate(workers)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=TIMEOUT)
    stuck = [thread.name for thread in threads if thread.is_alive()]
    assert not stuck, f"threads still running after {TIMEOUT} s: {stuck}"
    return results

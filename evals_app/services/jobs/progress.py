"""The progress callback a long operation's service accepts (docs/jobs.md).

A service calls `progress(done, total, phrase)` between steps, e.g. `progress(3, 10, "files
read")`; the callback may raise JobCancelled there, which a service inside a transaction lets
propagate, so a cancelled job leaves nothing half-written.
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int, str], None]


class JobCancelled(Exception):
    """The person who asked for the job cancelled it; the operation stops where it is."""


def no_progress(done: int, total: int, phrase: str) -> None:
    """The callback of a caller that does not follow progress."""

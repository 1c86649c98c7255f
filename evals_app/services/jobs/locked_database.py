"""Waiting out SQLite's one writer (docs/jobs.md, "The worker").

On SQLite a write waits up to the connection's timeout for the writer another connection
holds, then fails with "database is locked". A worker that met it in a bookkeeping write (a
job starting or ending) used to lose the job (queued or running for ever) or its loop; these
writes are tried again instead. On PostgreSQL the error does not occur.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

from django.db import OperationalError
from django_tasks_db.utils import is_locked_database_exception

logger = logging.getLogger(__name__)
T = TypeVar("T")
PAUSE_SECONDS = 0.5
ATTEMPTS = 60  # each waits the connection's timeout first: minutes in all, then it is an error


def retried_when_locked(action: Callable[[], T], what: str) -> T:
    """`action()`, tried again while it fails with "database is locked" (`what` names it in
    the log). Call it outside any transaction: a failed statement inside one spoils it."""
    for attempt in range(1, ATTEMPTS + 1):
        try:
            return action()
        except OperationalError as error:
            if not is_locked_database_exception(error) or attempt == ATTEMPTS:
                raise
            logger.warning("The database is locked (%s); trying again.", what)
            time.sleep(PAUSE_SECONDS)
    raise AssertionError("unreachable")  # the loop returns or raises

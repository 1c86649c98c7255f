"""`manage.py db_worker`: django-tasks' database worker, made steady (docs/jobs.md, "The
worker").

- As it starts, it marks failed the jobs of workers that are gone, removes the job files no
  unfinished job needs (services/jobs/leftovers.py) and asks for the refresh of out-of-date
  summaries (services/cases/summaries.py).
- "database is locked" (SQLite's writer held past the timeout) while it looks for a task or
  records how one ended is waited out and tried again, never fatal.
- Any other error of its loop ends the process with status 1, under --reload too, where the
  loop runs in a thread of its own: a live process whose loop had died left every job queued.
- A job queued on this machine wakes it at once, rather than at its next look at the queue
  (services/jobs/wake.py; docs/jobs.md, "Waking the worker").
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from django.db import OperationalError, close_old_connections
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import is_locked_database_exception

from evals_app.models import Job
from evals_app.services.cases.summaries import refresh_stale_workspaces
from evals_app.services.jobs.leftovers import sweep_leftovers
from evals_app.services.jobs.locked_database import PAUSE_SECONDS, retried_when_locked
from evals_app.services.jobs.wake import WakeSocket
from evals_app.services.jobs.workers import notice_dead_workers

logger = logging.getLogger("django_tasks_db")


class SteadyWorker(db_worker.Worker):
    """The worker loop, going on through a locked database."""

    def run(self) -> None:
        _guarded(self._run_steadily)

    def _run_steadily(self) -> None:
        retried_when_locked(lambda: notice_dead_workers(Job.objects.all()), "noticing dead jobs")
        sweep_leftovers()
        retried_when_locked(refresh_stale_workspaces, "asking for out-of-date summaries")
        while True:
            try:
                super().run()
                return
            except OperationalError as error:
                if not is_locked_database_exception(error):
                    raise
                logger.warning("The database is locked; the worker looks again.")
                close_old_connections()
                self.startup_delay = False
                time.sleep(PAUSE_SECONDS)
                if not self.running:
                    return

    def run_task(self, db_task_result: DBTaskResult) -> None:
        # django-tasks records how the task ended with one write each; a locked database
        # there used to end the loop with the task shown running for ever.
        for name in ("set_successful", "set_failed"):
            recorded = getattr(db_task_result, name)
            setattr(db_task_result, name, _retried(recorded, name))
        super().run_task(db_task_result)


def _retried(record: Callable[..., Any], what: str) -> Callable[..., Any]:
    def retried(*arguments: Any) -> Any:
        return retried_when_locked(lambda: record(*arguments), what)

    return retried


def _guarded(loop: Callable[[], None]) -> None:
    """Run `loop`; when it fails outside the main thread (--reload), end the process."""
    if threading.current_thread() is threading.main_thread():
        loop()
        return
    try:
        loop()
    except Exception:
        logger.exception("The worker's loop failed; the worker stops.")
        logging.shutdown()
        os._exit(1)


class _WakingClock:
    """`time` as db_worker's loop sees it: its sleep between two looks at the queue ends as
    soon as a job is queued."""

    def __init__(self, wake: WakeSocket) -> None:
        self.wake = wake

    def sleep(self, seconds: float) -> None:
        self.wake.wait(seconds)

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


class Command(db_worker.Command):
    """django-tasks' `db_worker`, with the steady worker above, woken when a job is queued."""

    def handle(self, *arguments: Any, **options: Any) -> None:
        db_worker.Worker = SteadyWorker  # type: ignore[misc]  # the class its handle() makes
        with WakeSocket() as wake:
            # db_worker sleeps with its module's `time.sleep`: that one sleep is replaced.
            db_worker.time = _WakingClock(wake)  # type: ignore[assignment]
            try:
                super().handle(*arguments, **options)
            finally:
                db_worker.time = time

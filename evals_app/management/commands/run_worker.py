"""`manage.py run_worker`: django-tasks' `db_worker`, woken at once when this machine queues a
job rather than at its next look at the queue (docs/jobs.md, "Waking the worker")."""

from __future__ import annotations

import time
from typing import Any

from django_tasks_db.management.commands import db_worker

from ...services.jobs.wake import WakeSocket


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
    help = "Run the job worker (db_worker), woken at once when a job is queued"

    def handle(self, *args: Any, **options: Any) -> None:
        with WakeSocket() as wake:
            # db_worker sleeps with its module's `time.sleep`: that one sleep is replaced.
            db_worker.time = _WakingClock(wake)  # type: ignore[assignment]
            try:
                super().handle(*args, **options)
            finally:
                db_worker.time = time

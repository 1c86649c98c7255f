"""Which worker runs a job, and noticing a worker that died under one (docs/jobs.md)."""

from __future__ import annotations

import os
import socket
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from ...models import Job
from .leftovers import remove_leftovers

# A worker on another machine that has not beaten for this long is taken for dead (on this
# machine its process id answers at once).
STALE_AFTER = timedelta(minutes=2)
KILLED = (
    "The worker running this job stopped before it finished (it was killed or crashed). "
    "Nothing it was writing was kept; start the job again."
)


def this_worker() -> str:
    """How a job names the process that runs it: host and process id."""
    return f"{socket.gethostname()}:{os.getpid()}"


def give_pages_the_processor() -> None:
    """Lower this process's CPU priority to the niceness AGENTV_WORKER_NICENESS (never raise
    it): the pages of a machine that also serves the site answer first (docs/jobs.md). The
    export's worker processes and AgentV's inherit it."""
    wanted = settings.AGENTV_WORKER_NICENESS
    if wanted > os.getpriority(os.PRIO_PROCESS, 0):
        os.setpriority(os.PRIO_PROCESS, 0, wanted)


def worker_is_dead(job: Job, now: Any = None) -> bool:
    """Whether the process running `job` is gone: its process id on this machine, else its
    heartbeat."""
    if job.state != Job.State.RUNNING or not job.worker:
        return False
    return process_is_gone(job.worker, job.heartbeat_at or job.started_at, now)


def process_is_gone(process: str, last_sign: datetime | None, now: datetime | None = None) -> bool:
    """Whether the process `process` (as `this_worker` names it) is gone: its process id on
    this machine, else whether its last sign of life is older than STALE_AFTER."""
    host, _, pid = process.rpartition(":")
    if host == socket.gethostname() and pid.isdigit():
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False  # alive, as another user
        return False
    return last_sign is None or (now or timezone.now()) - last_sign > STALE_AFTER


def notice_dead_workers(jobs: QuerySet[Job]) -> list[Job]:
    """Mark failed the running jobs among `jobs` whose worker is gone; return them."""
    from django_tasks import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    from ..imports.staging import remove_abandoned_imports  # which asks this module
    from .operations import KILLED_REPORTS  # the kinds' own, above this module

    dead = [job for job in jobs.filter(state=Job.State.RUNNING) if worker_is_dead(job)]
    for job in dead:
        finished = timezone.now()
        if Job.objects.filter(pk=job.pk, state=Job.State.RUNNING, worker=job.worker).update(
            state=Job.State.FAILED, error=KILLED, finished_at=finished
        ):
            job.state, job.error, job.finished_at = Job.State.FAILED, KILLED, finished
            remove_leftovers(job)
            # Only the process that marked it failed says what landed: it may finish or
            # undo the job's work (a publish's), once.
            report = KILLED_REPORTS.get(job.kind)
            said = report(job) if report is not None else None
            if said:
                Job.objects.filter(pk=job.pk).update(error=said)
                job.error = said
        if job.task_id:
            # django-tasks would show the task running forever.
            running = DBTaskResult.objects.filter(id=job.task_id, status=TaskResultStatus.RUNNING)
            running.update(status=TaskResultStatus.FAILED, finished_at=finished, traceback=KILLED)
    if dead:
        remove_abandoned_imports()  # what a killed worker's import had written, hidden
    return dead

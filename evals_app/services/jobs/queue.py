"""Asking for a job, cancelling it, and noticing a worker that died under one (docs/jobs.md)."""

from __future__ import annotations

import os
import shutil
import socket
import uuid
from datetime import timedelta
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils import timezone

from ...models import Job, Workspace

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


def start_job(
    kind: Job.Kind, requested_by: User, workspace: Workspace | None, **arguments: Any
) -> Job:
    """Queue a job for the worker and return it; the caller answers at once."""
    from .tasks import run_job_task  # the task module imports the operations, which import us

    job = Job.objects.create(
        kind=kind, requested_by=requested_by, workspace=workspace, arguments=arguments
    )
    result = run_job_task.enqueue(job.pk)
    Job.objects.filter(pk=job.pk).update(task_id=str(result.id))
    job.refresh_from_db()
    return job


def cancel_job(job: Job) -> None:
    """Cancel a queued job at once; ask a running one to stop at its next step."""
    queued = Job.objects.filter(pk=job.pk, state=Job.State.QUEUED)
    if queued.update(state=Job.State.CANCELLED, finished_at=timezone.now()):
        job.refresh_from_db()
        return
    Job.objects.filter(pk=job.pk, state=Job.State.RUNNING).update(cancel_requested=True)
    job.refresh_from_db()


def worker_is_dead(job: Job, now: Any = None) -> bool:
    """Whether the process running `job` is gone: its process id on this machine, else its
    heartbeat."""
    if job.state != Job.State.RUNNING or not job.worker:
        return False
    host, _, pid = job.worker.rpartition(":")
    if host == socket.gethostname() and pid.isdigit():
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False  # alive, as another user
        return False
    beat = job.heartbeat_at or job.started_at
    return beat is None or (now or timezone.now()) - beat > STALE_AFTER


def notice_dead_workers(jobs: QuerySet[Job]) -> list[Job]:
    """Mark failed the running jobs among `jobs` whose worker is gone; return them."""
    from django_tasks import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    dead = [job for job in jobs.filter(state=Job.State.RUNNING) if worker_is_dead(job)]
    for job in dead:
        finished = timezone.now()
        if Job.objects.filter(pk=job.pk, state=Job.State.RUNNING, worker=job.worker).update(
            state=Job.State.FAILED, error=KILLED, finished_at=finished
        ):
            job.state, job.error, job.finished_at = Job.State.FAILED, KILLED, finished
        if job.task_id:
            # django-tasks would show the task running forever.
            running = DBTaskResult.objects.filter(id=job.task_id, status=TaskResultStatus.RUNNING)
            running.update(status=TaskResultStatus.FAILED, finished_at=finished, traceback=KILLED)
    return dead


def running_jobs_of(user: User) -> list[Job]:
    """The person's unfinished jobs, for the header, newest first."""
    jobs = Job.objects.filter(requested_by=user, state__in=[Job.State.QUEUED, Job.State.RUNNING])
    notice_dead_workers(jobs)
    return list(jobs.filter(state__in=[Job.State.QUEUED, Job.State.RUNNING])[:5])


def keep_upload(upload: IO[bytes]) -> str:
    """Keep an uploaded file where the worker finds it; returns its name there."""
    folder = Path(settings.AGENTV_JOB_FILES_DIR) / "uploads"
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{uuid.uuid4().hex}.zip"
    with (folder / name).open("wb") as kept:
        shutil.copyfileobj(upload, kept)
    return name

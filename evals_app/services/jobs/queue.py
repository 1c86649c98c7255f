"""Asking for a job and cancelling it (docs/jobs.md)."""

from __future__ import annotations

import shutil
import uuid
from typing import IO, Any

from django.contrib.auth.models import User
from django.utils import timezone

from ...models import Job, Workspace
from .leftovers import job_files, remove_leftovers
from .tasks import run_job_task
from .workers import notice_dead_workers


def start_job(
    kind: Job.Kind, requested_by: User, workspace: Workspace | None, **arguments: Any
) -> Job:
    """Queue a job for the worker and return it; the caller answers at once."""
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
        remove_leftovers(job)  # the upload a cancelled import was to read
        return
    Job.objects.filter(pk=job.pk, state=Job.State.RUNNING).update(cancel_requested=True)
    job.refresh_from_db()


def running_jobs_of(user: User) -> list[Job]:
    """The person's unfinished jobs, for the header, newest first."""
    jobs = Job.objects.filter(requested_by=user, state__in=[Job.State.QUEUED, Job.State.RUNNING])
    notice_dead_workers(jobs)
    return list(jobs.filter(state__in=[Job.State.QUEUED, Job.State.RUNNING])[:5])


def keep_upload(upload: IO[bytes]) -> str:
    """Keep an uploaded file where the worker finds it; returns its name there."""
    folder = job_files() / "uploads"
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{uuid.uuid4().hex}.zip"
    # Named .partial until whole: a server killed while copying leaves a name the sweep
    # knows (leftovers.py).
    partial = folder / f"{name}.partial"
    try:
        with partial.open("wb") as kept:
            shutil.copyfileobj(upload, kept)
        partial.replace(folder / name)
    finally:
        partial.unlink(missing_ok=True)
    return name

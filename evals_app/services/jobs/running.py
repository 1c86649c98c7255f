"""Running one job in the worker: one at a time per workspace, a heartbeat with the progress,
cancellation between steps, and how it ended (docs/jobs.md)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from ...models import Job, Workspace
from .leftovers import remove_leftovers
from .locked_database import retried_when_locked
from .progress import JobCancelled, Progress
from .workers import notice_dead_workers, this_worker

BEAT_SECONDS = 0.2  # how often progress is written and a cancellation is looked for
WAIT_SECONDS = 0.5  # how often a job waiting for its workspace looks again


class OperationRefused(Exception):
    """The operation refused its input; the message is the job's error, shown verbatim."""


Operation = Callable[[Job, Progress], dict[str, Any]]


def run_job(job_pk: int, operations: dict[str, Operation]) -> None:
    """Run the queued job `job_pk` with its kind's operation, recording how it ends."""
    # The job's own bookkeeping waits out a locked database (SQLite): failing there would
    # leave it queued or running for ever.
    retried_when_locked(lambda: notice_dead_workers(Job.objects.all()), "noticing dead jobs")
    job = Job.objects.filter(pk=job_pk).first()
    if job is None or not retried_when_locked(lambda: _wait_for_workspace(job), "starting"):
        return  # deleted with its workspace, or cancelled while queued
    heartbeat = Heartbeat(job)
    heartbeat.start()
    try:
        result = operations[job.kind](job, heartbeat.progress)
    except JobCancelled:
        heartbeat.stop()
        _finish(job, Job.State.CANCELLED)
    except OperationRefused as refusal:
        heartbeat.stop()
        _finish(job, Job.State.FAILED, error=str(refusal))
    except BaseException as error:
        heartbeat.stop()
        _finish(job, Job.State.FAILED, error=f"{type(error).__name__}: {error}")
        raise  # the worker's task result keeps the traceback
    else:
        heartbeat.stop()
        _finish(job, Job.State.DONE, result=result)


def _wait_for_workspace(job: Job) -> bool:
    """Start `job` once no other job of its workspace runs (shown queued meanwhile); False
    when it was cancelled first."""
    while True:
        with transaction.atomic():
            if job.workspace_id is not None:
                # The workspace's row is the lock: two workers never both see it free.
                Workspace.objects.select_for_update().filter(pk=job.workspace_id).first()
                others = Job.objects.filter(workspace_id=job.workspace_id).exclude(pk=job.pk)
                busy = others.filter(state=Job.State.RUNNING).exists()
            else:
                busy = False
            if not busy:
                now = timezone.now()
                started = Job.objects.filter(pk=job.pk, state=Job.State.QUEUED).update(
                    state=Job.State.RUNNING, started_at=now, heartbeat_at=now, worker=this_worker()
                )
                if not started:
                    return False
                job.refresh_from_db()
                return True
        notice_dead_workers(Job.objects.filter(workspace=job.workspace))
        time.sleep(WAIT_SECONDS)


def _finish(job: Job, state: Job.State, *, error: str = "", result: Any = None) -> None:
    fields: dict[str, Any] = {"state": state, "error": error, "finished_at": timezone.now()}
    if result is not None:
        fields["result"] = result
    running = Job.objects.filter(pk=job.pk, state=Job.State.RUNNING)
    retried_when_locked(lambda: running.update(**fields), "ending a job")
    if state != Job.State.DONE:
        remove_leftovers(job)


class Heartbeat:
    """A thread with its own database connection that writes the job's progress and beat,
    and reads whether it was cancelled, while the operation runs (maybe inside a long
    transaction of its own, whose writes nobody sees before it commits)."""

    def __init__(self, job: Job) -> None:
        self.job = job
        self.latest: tuple[int, int, str] | None = None
        self.cancelled = threading.Event()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._beat, name=f"job-{job.pk}", daemon=True)

    def start(self) -> None:
        # Run inside a caller's transaction (django-tasks' immediate backend, as in tests),
        # nobody could see the beats, and on SQLite they would wait for that transaction.
        if not connection.in_atomic_block:
            self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        if self.thread.is_alive():
            self.thread.join()

    def progress(self, done: int, total: int, phrase: str) -> None:
        """The operation's progress callback: noted for the next beat; raises JobCancelled
        once the job was cancelled."""
        self.latest = (done, total, phrase[:200])
        if self.cancelled.is_set():
            raise JobCancelled

    def _beat(self) -> None:
        try:
            while True:
                stopping = self.stopping.wait(BEAT_SECONDS)
                self._write()
                if stopping:
                    return
        finally:
            connection.close()

    def _write(self) -> None:
        fields: dict[str, Any] = {"heartbeat_at": timezone.now()}
        if self.latest is not None:
            fields["done"], fields["total"], fields["phrase"] = self.latest
        try:
            running = Job.objects.filter(pk=self.job.pk, state=Job.State.RUNNING)
            # Read first: on SQLite a read goes on while the operation holds the write lock.
            if running.filter(cancel_requested=True).exists():
                self.cancelled.set()
            running.update(**fields)
        except DatabaseError:
            # SQLite: another connection held the write lock past the timeout; next beat.
            connection.close()

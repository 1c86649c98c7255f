"""A real worker (`manage.py db_worker`) in its own process, on the test database, and waiting
for the jobs it runs (tests/jobs/, tests/browser/)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from django.db import connection

from evals_app.models import Job
from tests.conftest import REPOSITORY

WAIT_SECONDS = 60  # how long a test waits for the worker before it fails


def database_url() -> str:
    """The test database (which pytest-django made) as DATABASE_URL spells it."""
    database = connection.settings_dict
    if database["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{database['NAME']}"
    user = database["USER"] + (f":{database['PASSWORD']}" if database["PASSWORD"] else "")
    return f"postgres://{user}@{database['HOST']}:{database['PORT']}/{database['NAME']}"


class Worker:
    """`manage.py db_worker` against the test database; start() may be called again after
    kill()."""

    def __init__(self, job_files: Path, **environment: str) -> None:
        self.job_files = job_files
        self.environment = environment  # more settings of the worker's, by variable
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        environment = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "AGENTV_JOB_FILES_DIR": str(self.job_files),
            "DJANGO_DEBUG": "true",
            **self.environment,
        }
        command = [sys.executable, "manage.py", "db_worker", "--no-reload", "--interval", "0.1"]
        self.process = subprocess.Popen(
            [*command, "--no-startup-delay", "--verbosity", "0"], cwd=REPOSITORY, env=environment
        )

    def kill(self) -> None:
        """SIGKILL, as the machine's OOM killer or a hard stop would; reaped, so its process
        id is gone."""
        assert self.process is not None
        self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=WAIT_SECONDS)


def until(ready: Callable[[], bool], failure: Callable[[], str]) -> None:
    """Look again and again until `ready()` holds: the worker is another process, whose
    writes show up when it commits. Fails with `failure()` after WAIT_SECONDS."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not ready():
        if time.monotonic() >= deadline:
            pytest.fail(failure())
        time.sleep(0.05)


def wait_for(job: Job, ready: Callable[[Job], bool]) -> Job:
    """The job once `ready` holds for it, read again and again from the database."""

    def there() -> bool:
        job.refresh_from_db()
        return ready(job)

    until(
        there,
        lambda: f"job {job.pk} never got there: {job.state} {job.done}/{job.total} {job.error}",
    )
    return job


def finished(job: Job) -> Job:
    """The job once it has ended, whichever way."""
    return wait_for(job, lambda current: current.finished)


def the_job() -> Job:
    """The one job the test asked for."""
    return Job.objects.get()

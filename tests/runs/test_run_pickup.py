"""The worker picks up a run at once: `manage.py db_worker` is woken when a run is queued,
not at its next look at the queue (docs/jobs.md, "Waking the worker")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from evals_app.models import Job
from evals_app.services.runs.starting import start_run
from tests.conftest import REPOSITORY
from tests.workers import database_url, finished, until

from .conftest import access_of, case_named, editor_of, workspace_of
from .test_running_cases import SINGLE_TURN

pytestmark = pytest.mark.django_db(transaction=True)

# Far longer than a pickup may take: a run started before it is over was woken.
LOOK_SECONDS = 30


@pytest.fixture
def waking_worker(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A `db_worker` that looks at the queue every LOOK_SECONDS unless woken; its job files
    in a short folder (a socket's address is at most 108 bytes)."""
    job_files = Path(tempfile.mkdtemp(prefix="wake-", dir="/tmp"))
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.AGENTV_JOB_FILES_DIR = job_files
    environment = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "AGENTV_JOB_FILES_DIR": str(job_files),
        "AGENTV_RUNS_ENABLED": "true",
        "AGENTV_TARGETS_FILE": "",
    }
    command = [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay"]
    process = subprocess.Popen(
        [*command, "--interval", str(LOOK_SECONDS), "--verbosity", "0"],
        cwd=REPOSITORY,
        env=environment,
    )
    try:
        socket = job_files / "wake" / f"worker-{process.pid}.sock"
        # It listens once Django has started; a run queued before would wait for its look.
        until(socket.exists, lambda: "the worker did not start listening")
        yield job_files
    finally:
        process.terminate()
        process.wait(timeout=30)
        shutil.rmtree(job_files, ignore_errors=True)


def test_a_queued_run_starts_at_once_not_at_the_workers_next_look(
    tmp_path: Path, waking_worker: Path
) -> None:
    workspace = workspace_of(tmp_path, SINGLE_TURN)
    case = case_named(workspace, "add")
    run = start_run(
        access_of(workspace, "editor"),
        editor_of(workspace),
        case.suite,
        [(case, case.document)],
        "mock",
    )
    job = finished(run.job)
    run.refresh_from_db()
    assert job.state == Job.State.DONE, job.error
    assert run.started_at is not None
    assert (run.started_at - run.created_at).total_seconds() < LOOK_SECONDS / 3

"""The uploads of an import of other tools' tests are job files like a .zip import's: kept while
their job waits, removed when it fails (docs/jobs.md, "Files")."""

from __future__ import annotations

import os
import time
from pathlib import Path

from evals_app.models import Job
from evals_app.services.jobs.leftovers import (
    UPLOAD_GRACE_SECONDS,
    remove_leftovers,
    sweep_leftovers,
)
from tests import factories

NAMES = ["0123456789abcdef0123456789abcdef.zip", "fedcba9876543210fedcba9876543210.zip"]


def _old_uploads(folder: Path) -> list[Path]:
    old = time.time() - UPLOAD_GRACE_SECONDS - 60
    paths = []
    for name in NAMES:
        path = folder / "uploads" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("rows\n")
        os.utime(path, (old, old))
        paths.append(path)
    return paths


def _tests_import(state: str) -> Job:
    return Job.objects.create(
        kind=Job.Kind.IMPORT_TESTS,
        requested_by=factories.user("alice"),
        state=state,
        arguments={"files": [["a.jsonl", NAMES[0]], ["b.csv", NAMES[1]]], "suite": "x.yaml"},
    )


def test_a_worker_that_starts_keeps_the_uploads_of_a_queued_tests_import(
    tasks_in_the_database: Path, db: None
) -> None:
    uploads = _old_uploads(tasks_in_the_database)
    _tests_import(Job.State.QUEUED)

    sweep_leftovers()

    assert all(path.exists() for path in uploads)


def test_a_failed_tests_import_removes_its_uploads(tasks_in_the_database: Path, db: None) -> None:
    uploads = _old_uploads(tasks_in_the_database)
    job = _tests_import(Job.State.FAILED)

    remove_leftovers(job)

    assert not any(path.exists() for path in uploads)

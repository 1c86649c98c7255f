"""A job ended by a kill tells what landed, and nothing it made stays on disk (docs/jobs.md,
"A killed worker" and "Files"): real worker processes, killed with SIGKILL."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from evals_app.models import Job, RepositoryRemote, Workspace
from evals_app.services.jobs.leftovers import UPLOAD_GRACE_SECONDS
from evals_app.services.jobs.requests import ask_export, ask_publish
from evals_app.services.jobs.workers import notice_dead_workers, this_worker
from evals_app.services.repository.remotes import LinkRequest, link_remote
from tests import factories
from tests.git_repositories import Repository, bare_remote, repository, suite_yaml
from tests.workers import Worker, finished, the_job, until, wait_for

PATH = "evals/suite.eval.yaml"
BRANCH = "agentv-web/review"
SUITE = factories.eval_document(factories.simple_case("q1"))
# Enough eval files (25,000 cases) that an import is still reading them when the test acts.
MANY_FILES = {
    f"big/evals/suite-{n:04}.yaml": factories.eval_document(
        *[factories.simple_case(f"q{i}") for i in range(10)]
    )
    for n in range(2500)
}


@pytest.fixture
def remote(tmp_path: Path, settings: Any, transactional_db: None) -> Repository:
    """The team's bare repository, whose `post-receive` hook (the remote's own: the app's git
    runs none of its clone's) says when a push arrived and then holds the push open until the
    test lets it go: the worker is killed at a known step, after the remote took the commit."""
    settings.AGENTV_REPOSITORIES_DIR = tmp_path / "clones"
    settings.AGENTV_LOCAL_REPOSITORIES_ROOT = str(tmp_path / "remotes")
    work = repository(tmp_path / "work")
    work.commit({PATH: suite_yaml(("one", "First?"))})
    bare = bare_remote(work, tmp_path / "remotes" / "evals.git")
    hook = bare.path / "hooks" / "post-receive"
    hook.write_text(
        "#!/bin/sh\n"
        f"touch '{tmp_path}/pushed'\n"
        f"for i in $(seq 600); do [ -e '{tmp_path}/release' ] && exit 0; sleep 0.1; done\n"
    )
    hook.chmod(0o755)
    return bare


def test_a_publish_killed_after_its_push_reports_the_branch_and_the_new_base(
    remote: Repository, tmp_path: Path, tasks_in_the_database: Path
) -> None:
    workspace = factories.workspace("Team evals")
    link_remote(workspace, LinkRequest(url=f"file://{remote.path}", branch="main"))
    factories.edit_input("one", "First, edited?")
    owner = factories.member(workspace, "owner")
    worker = Worker(tasks_in_the_database)
    worker.start()
    try:
        job = ask_publish(owner, workspace, BRANCH)
        until(lambda: (tmp_path / "pushed").exists(), lambda: "the push never reached the remote")
        worker.kill()
    finally:
        (tmp_path / "release").touch()  # the orphaned push ends
        worker.stop()
    client = Client()
    client.force_login(owner)

    page = client.get(job.get_absolute_url()).content.decode()  # which notices the kill

    job.refresh_from_db()
    pushed = remote.head(BRANCH)
    assert job.state == Job.State.FAILED
    assert f"Its commit {pushed[:12]} landed on branch {BRANCH} of the remote" in job.error
    assert "before the worker stopped" in job.error
    assert f"base is now {pushed[:12]}" in page
    workspace.refresh_from_db()
    assert workspace.base_commit == pushed and workspace.pending_publish is None
    assert RepositoryRemote.objects.get().pushed_branch == BRANCH


def _upload(client: Client, files: dict[str, object], name: str) -> Job:
    archive = io.BytesIO(factories.zip_archive(files))  # type: ignore[arg-type]
    archive.name = "workspace.zip"
    client.post(reverse("workspace_import"), {"archive": archive, "name": name})
    return the_job()


def _left_on_disk(job_files: Path) -> list[str]:
    return sorted(
        str(path.relative_to(job_files)) for path in job_files.rglob("*") if path.is_file()
    )


def test_a_killed_import_leaves_neither_its_upload_nor_its_unpacked_files(
    client: Client, tasks_in_the_database: Path, transactional_db: None
) -> None:
    client.force_login(factories.user("alice"))
    worker = Worker(tasks_in_the_database)
    worker.start()
    try:
        job = _upload(client, MANY_FILES, "Killed")
        wait_for(job, lambda current: current.phrase == "eval files read" and current.done > 0)
        assert _left_on_disk(tasks_in_the_database)  # the upload, the unpacked files
        worker.kill()
    finally:
        worker.stop()

    client.get(job.get_absolute_url())  # which notices the kill

    job.refresh_from_db()
    assert job.state == Job.State.FAILED
    assert _left_on_disk(tasks_in_the_database) == []


def test_a_cancelled_queued_import_removes_its_upload(
    client: Client, tasks_in_the_database: Path, db: None
) -> None:
    client.force_login(factories.user("alice"))
    job = _upload(client, {"repo/evals/a.yaml": SUITE}, "Never")
    assert _left_on_disk(tasks_in_the_database) == [f"uploads/{job.arguments['upload']}"]

    client.post(reverse("job_cancel", args=[job.pk]))

    job.refresh_from_db()
    assert job.state == Job.State.CANCELLED
    assert _left_on_disk(tasks_in_the_database) == []


def test_a_worker_that_starts_removes_what_killed_jobs_and_uploads_left(
    tasks_in_the_database: Path, transactional_db: None
) -> None:
    files = tasks_in_the_database
    alive = Job.objects.create(
        kind=Job.Kind.RUN,
        requested_by=factories.user("alice"),
        state=Job.State.RUNNING,
        worker=this_worker(),  # this test's process: alive, its job's scratch is kept
        started_at=timezone.now(),
    )
    old = time.time() - UPLOAD_GRACE_SECONDS - 60
    leftovers = {
        "tmp/job-999999-export-abc/big.yaml": None,
        "tmp/job-999998-run-def/workspace/x.yaml": None,
        "exports/999997.partial": None,
        "uploads/0123456789abcdef0123456789abcdef.zip": old,
        "uploads/fedcba9876543210fedcba9876543210.zip.partial": old,
    }
    kept = {
        f"tmp/job-{alive.pk}-run-ghi/workspace/x.yaml": None,
        "uploads/00000000000000000000000000000000.zip": None,  # young: its job may be coming
        "tmp/notes.txt": None,  # not the app's name: never removed
        "exports/12.zip": None,  # a finished export, kept for download
    }
    for relative, when in {**leftovers, **kept}.items():
        path = files / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("left over\n")
        if when is not None:
            os.utime(path, (when, when))
    worker = Worker(files)
    worker.start()
    try:
        until(
            lambda: not any((files / relative).exists() for relative in leftovers),
            lambda: f"left over: {_left_on_disk(files)}",
        )
    finally:
        worker.stop()

    assert _left_on_disk(files) == sorted(kept)


def test_the_worker_goes_on_after_the_database_was_locked_longer_than_its_timeout(
    tasks_in_the_database: Path, transactional_db: None
) -> None:
    """SQLite: another connection holds the one writer for 3 s, and the worker's writes give
    up after 1 s ("database is locked"); it tries again rather than dying. PostgreSQL: the
    queue's table is locked as long, and the worker waits."""
    workspace = factories.workspace("Team evals")
    owner = factories.member(workspace, "owner")
    worker = Worker(tasks_in_the_database, AGENTV_SQLITE_TIMEOUT_SECONDS="1")
    worker.start()
    try:
        ask_export(owner, workspace, approved_only=False)
        finished(the_job())  # the worker is up and polling
        with _database_held():
            # Held longer than the worker's timeout: a wait on the clock is the point here.
            time.sleep(3)
        assert worker.process is not None and worker.process.poll() is None, "the worker died"
        second = ask_export(owner, workspace, approved_only=False)
        assert finished(second).state == Job.State.DONE, second.error
        assert worker.process.poll() is None
    finally:
        worker.stop()


class _database_held:
    """Another connection holding the database's writer (SQLite) or the queue's table
    (PostgreSQL) for the block."""

    def __enter__(self) -> None:
        settings = connection.settings_dict
        if connection.vendor == "sqlite":
            import sqlite3

            self.held: Any = sqlite3.connect(settings["NAME"], isolation_level=None)
            self.held.execute("BEGIN IMMEDIATE")
        else:
            import psycopg

            self.held = psycopg.connect(
                host=settings["HOST"],
                port=settings["PORT"],
                user=settings["USER"],
                password=settings["PASSWORD"] or None,
                dbname=settings["NAME"],
            )
            table = DBTaskResult._meta.db_table
            self.held.execute(f'LOCK TABLE "{table}" IN ACCESS EXCLUSIVE MODE')

    def __exit__(self, *exception: object) -> None:
        self.held.rollback() if connection.vendor != "sqlite" else self.held.execute("ROLLBACK")
        self.held.close()


def test_a_dead_workers_jobs_are_noticed_by_a_worker_that_starts(
    tasks_in_the_database: Path, transactional_db: None
) -> None:
    workspace = factories.workspace("Team evals")
    dead = Job.objects.create(
        kind=Job.Kind.EXPORT,
        workspace=workspace,
        requested_by=factories.user("alice"),
        state=Job.State.RUNNING,
        worker=f"{this_worker().rpartition(':')[0]}:999999999",  # no such process
        started_at=timezone.now(),
    )
    worker = Worker(tasks_in_the_database)
    worker.start()
    try:
        wait_for(dead, lambda current: current.state == Job.State.FAILED)
    finally:
        worker.stop()
    assert notice_dead_workers(Job.objects.all()) == []
    assert Workspace.objects.exists()

"""Long work asked for from the web runs in a real worker process (docs/jobs.md): it reports
progress, can be cancelled, survives a killed worker, and waits for its workspace."""

from __future__ import annotations

import io
import os
import re
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from evals_app.models import Case, Job, Suite, Workspace
from evals_app.services.cases.editing import save_case
from evals_app.services.jobs.workers import KILLED, this_worker
from tests import factories
from tests.git_repositories import Repository, linked_workspace, suite_yaml
from tests.workers import Worker, finished, the_job, until, wait_for

SUITE = factories.eval_document(factories.simple_case("q1"), factories.simple_case("q2"))
# Enough eval files (25,000 cases) that a job is still reading them when the test acts.
MANY_FILES = {
    f"big/evals/suite-{n:04}.yaml": factories.eval_document(
        *[factories.simple_case(f"q{i}") for i in range(10)]
    )
    for n in range(2500)
}


def reading(job: Job) -> Job:
    """The job once it reports files read or suites being written (on PostgreSQL the heartbeat
    shows the writing too), before it has written them all."""
    return wait_for(
        job,
        lambda current: (
            (current.phrase == "eval files read" and current.done > 0)
            or (current.phrase == "suites written" and current.done < current.total)
        ),
    )


def upload(client: Client, files: dict[str, object], name: str) -> Job:
    archive = io.BytesIO(factories.zip_archive(files))  # type: ignore[arg-type]
    archive.name = "workspace.zip"
    response = client.post(reverse("workspace_import"), {"archive": archive, "name": name})
    job = the_job()
    assert response.status_code == 302
    assert response["Location"] == job.get_absolute_url()
    return job


@pytest.fixture
def alice(client: Client, transactional_db: None) -> Client:
    client.force_login(factories.user("alice"))
    return client


def test_a_zip_import_from_the_web_runs_in_the_worker(alice: Client, worker: Worker) -> None:
    job = finished(upload(alice, {"repo/evals/a.yaml": SUITE}, "Imported"))

    assert job.state == Job.State.DONE, job.error
    workspace = Workspace.objects.get(name="Imported")
    assert job.workspace == workspace
    html = alice.get(job.get_absolute_url()).content.decode()
    assert "Imported Imported: 1 suite, 2 cases and 0 files." in html
    assert f'href="{workspace.get_absolute_url()}">Open the workspace' in html


def test_the_web_request_only_queues_the_job(alice: Client, tasks_in_the_database: Path) -> None:
    job = upload(alice, {"repo/evals/a.yaml": SUITE}, "Later")

    assert job.state == Job.State.QUEUED
    assert not Workspace.objects.filter(name="Later").exists()
    assert "Waiting for the worker" in alice.get(job.get_absolute_url()).content.decode()


def test_a_running_import_reports_how_far_it_is(alice: Client, worker: Worker) -> None:
    job = upload(alice, MANY_FILES, "Big")

    running = reading(job)

    html = alice.get(job.get_absolute_url(), headers={"HX-Request": "true"}).content.decode()
    assert running.total == 2500
    assert re.search(r"\d+ of 2500 (eval files read|suites written)", html)
    assert 'hx-trigger="every 1s"' in html
    assert "Running for" in html


def test_a_finished_job_page_stops_polling(alice: Client, worker: Worker) -> None:
    job = finished(upload(alice, {"repo/evals/a.yaml": SUITE}, "Small"))

    html = alice.get(job.get_absolute_url(), headers={"HX-Request": "true"}).content.decode()

    assert "Done" in html
    assert "hx-trigger" not in html


def test_a_running_import_is_cancelled_and_writes_nothing(alice: Client, worker: Worker) -> None:
    job = upload(alice, MANY_FILES, "Cancelled")
    reading(job)

    alice.post(reverse("job_cancel", args=[job.pk]))

    assert finished(job).state == Job.State.CANCELLED
    assert not Workspace.objects.filter(name="Cancelled").exists()
    assert not list((worker.job_files / "uploads").iterdir())


def test_a_queued_job_cancelled_never_runs(alice: Client, tasks_in_the_database: Path) -> None:
    job = upload(alice, {"repo/evals/a.yaml": SUITE}, "Never")
    alice.post(reverse("job_cancel", args=[job.pk]))
    running = Worker(tasks_in_the_database)
    running.start()
    try:
        # The worker takes the task and drops it: nothing else is queued after it.
        task = DBTaskResult.objects.get(id=job.task_id)

        def taken() -> bool:
            task.refresh_from_db()
            return task.status == "SUCCESSFUL"

        until(taken, lambda: f"the worker never took the task: {task.status}")
    finally:
        running.stop()
    job.refresh_from_db()
    assert (job.state, task.status) == (Job.State.CANCELLED, "SUCCESSFUL")
    assert not Workspace.objects.filter(name="Never").exists()


def test_a_killed_worker_leaves_a_failed_job_and_nothing_written(
    alice: Client, worker: Worker
) -> None:
    job = upload(alice, MANY_FILES, "Killed")
    reading(job)

    worker.kill()
    html = alice.get(job.get_absolute_url()).content.decode()

    job.refresh_from_db()
    assert (job.state, job.error) == (Job.State.FAILED, KILLED)
    assert "Failed" in html and "killed or crashed" in html
    assert not Workspace.objects.filter(name="Killed").exists()
    assert not Suite.objects.exists() and not Case.objects.exists()


def test_the_next_worker_marks_a_killed_workers_job_failed(alice: Client, worker: Worker) -> None:
    job = upload(alice, MANY_FILES, "Killed")
    reading(job)
    worker.kill()

    worker.start()
    second = upload_second(alice)

    assert finished(second).state == Job.State.DONE
    job.refresh_from_db()
    assert (job.state, job.error) == (Job.State.FAILED, KILLED)


def writing(job: Job) -> Job:
    """The job once it has committed a batch of suites and has more to write."""
    return wait_for(
        job, lambda current: current.phrase == "suites written" and 0 < current.done < current.total
    )


def test_a_killed_workers_half_written_workspace_is_removed(alice: Client, worker: Worker) -> None:
    job = upload(alice, MANY_FILES, "Killed")
    writing(job)
    assert Workspace.all_objects.filter(name="Killed").exists()  # hidden, half written

    worker.kill()
    alice.get(job.get_absolute_url())  # which notices the worker is gone

    job.refresh_from_db()
    assert (job.state, job.error) == (Job.State.FAILED, KILLED)
    assert not Workspace.all_objects.filter(name="Killed").exists()
    assert not Suite.objects.exists() and not Case.objects.exists()


def test_a_save_elsewhere_completes_while_an_import_writes(alice: Client, worker: Worker) -> None:
    elsewhere = factories.case(factories.suite(factories.workspace("Elsewhere")), "saved")
    job = upload(alice, MANY_FILES, "Importing")
    writing(job)

    document = {**elsewhere.document, "outcome": "Saved meanwhile."}
    saved = save_case(elsewhere, document, elsewhere.version)

    job.refresh_from_db()
    assert saved.document["outcome"] == "Saved meanwhile."
    assert job.state == Job.State.RUNNING and job.done < job.total
    assert finished(job).state == Job.State.DONE


def upload_second(client: Client) -> Job:
    archive = io.BytesIO(factories.zip_archive({"repo/evals/a.yaml": SUITE}))
    archive.name = "second.zip"
    client.post(reverse("workspace_import"), {"archive": archive, "name": "Second"})
    return Job.objects.filter(arguments__name="Second").get()


@pytest.fixture
def owner(client: Client, repo: Repository, transactional_db: None) -> tuple[Client, Workspace]:
    workspace = linked_workspace(repo)
    client.force_login(factories.member(workspace, "owner"))
    return client, workspace


def test_a_sync_waits_while_another_job_of_its_workspace_runs(
    owner: tuple[Client, Workspace], repo: Repository, worker: Worker
) -> None:
    client, workspace = owner
    # Another worker (this process, alive) is syncing the workspace.
    first = Job.objects.create(
        kind=Job.Kind.SYNC,
        workspace=workspace,
        requested_by=workspace.memberships.get().user,
        state=Job.State.RUNNING,
        worker=this_worker(),
        started_at=timezone.now(),
    )
    repo.commit({"evals/suite.eval.yaml": suite_yaml(("one", "Changed?"))}, "change")

    client.post(reverse("repository_sync", args=[workspace.slug]), {"commit": repo.head()})
    second = Job.objects.exclude(pk=first.pk).get()
    task = DBTaskResult.objects.get(id=second.task_id)
    wait_for(second, lambda current: DBTaskResult.objects.get(id=task.id).status == "RUNNING")
    second.refresh_from_db()
    assert second.state == Job.State.QUEUED
    assert Case.objects.get(case_id="one").document["input"] == "First?"

    Job.objects.filter(pk=first.pk).update(state=Job.State.DONE, finished_at=timezone.now())

    assert finished(second).state == Job.State.DONE, second.error
    assert Case.objects.get(case_id="one").document["input"] == "Changed?"


def test_an_export_from_the_web_is_downloaded_from_its_job(
    owner: tuple[Client, Workspace], worker: Worker
) -> None:
    client, workspace = owner

    client.post(reverse("workspace_export", args=[workspace.slug]))
    job = finished(the_job())

    assert job.state == Job.State.DONE, job.error
    response = client.get(reverse("job_download", args=[job.pk]))
    names = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content))).namelist()
    assert f"{workspace.slug}/evals/suite.eval.yaml" in names
    assert f"{workspace.slug}/formatted.jsonl" in names


def test_check_for_changes_then_apply_run_in_the_worker(
    owner: tuple[Client, Workspace], repo: Repository, worker: Worker
) -> None:
    client, workspace = owner
    repo.commit({"evals/suite.eval.yaml": suite_yaml(("one", "Changed?"))}, "change")

    client.post(reverse("repository_check", args=[workspace.slug]))
    check = finished(the_job())
    html = client.get(check.get_absolute_url()).content.decode()
    assert check.result["apply_commit"] == repo.head()
    assert "Apply these changes" in html
    client.post(reverse("repository_sync", args=[workspace.slug]), {"commit": repo.head()})
    apply = finished(Job.objects.get(kind=Job.Kind.SYNC))

    assert apply.state == Job.State.DONE, apply.error
    assert apply.result["summary"].startswith(f"Synced with {repo.head()[:12]}")
    assert Case.objects.get(case_id="one").document["input"] == "Changed?"


def test_a_publish_from_the_web_runs_in_the_worker(
    owner: tuple[Client, Workspace], repo: Repository, worker: Worker
) -> None:
    client, workspace = owner
    case = Case.objects.get(case_id="one")
    document = {**case.document, "input": "Edited?"}
    save_case(case, document, case.version, None)

    client.post(reverse("repository_publish", args=[workspace.slug]), {"branch": "main"})
    job = finished(the_job())

    assert job.state == Job.State.DONE, job.error
    assert job.result["summary"].startswith("Published 1 changed case as")
    assert "Edited?" in repo.show("main", "evals/suite.eval.yaml")


def test_someone_elses_job_is_not_found(alice: Client, worker: Worker) -> None:
    job = finished(upload(alice, {"repo/evals/a.yaml": SUITE}, "Mine"))
    alice.force_login(factories.user("bob"))

    assert alice.get(job.get_absolute_url()).status_code == 404
    assert alice.post(reverse("job_cancel", args=[job.pk])).status_code == 404


def test_the_worker_gives_pages_the_processor_once_it_runs_a_job(
    alice: Client, worker: Worker
) -> None:
    assert worker.process is not None
    assert os.getpriority(os.PRIO_PROCESS, worker.process.pid) == os.getpriority(os.PRIO_PROCESS, 0)
    job = finished(upload(alice, {"repo/evals/a.yaml": SUITE}, "Niced"))

    assert job.state == Job.State.DONE, job.error
    assert os.getpriority(os.PRIO_PROCESS, worker.process.pid) == max(
        os.getpriority(os.PRIO_PROCESS, 0), settings.AGENTV_WORKER_NICENESS
    )

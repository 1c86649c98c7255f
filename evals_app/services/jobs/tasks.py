"""The one django-tasks task: run a job (docs/jobs.md). The worker is `manage.py db_worker`."""

from __future__ import annotations

from django_tasks import task

from .operations import OPERATIONS
from .running import run_job
from .workers import give_pages_the_processor


@task()
def run_job_task(job_pk: int) -> None:
    """Run the job `job_pk` in the worker."""
    give_pages_the_processor()
    run_job(job_pk, OPERATIONS)

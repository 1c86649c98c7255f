"""A job's page never contradicts itself: once done, its summary says what it did, without
the unfinished progress of its last phase; a job that failed shows where it stopped."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from evals_app.models import Job
from tests import factories

pytestmark = pytest.mark.django_db


def job_page(state: str, done: int, total: int, phrase: str, summary: str = "") -> str:
    owner = factories.user("olivia", None)
    now = timezone.now()
    job = Job.objects.create(
        kind=Job.Kind.PUBLISH,
        requested_by=owner,
        state=state,
        done=done,
        total=total,
        phrase=phrase,
        result={"summary": summary} if summary else {},
        error="" if state == Job.State.DONE else "The push was refused.",
        started_at=now,
        finished_at=now,
    )
    client = Client()
    client.force_login(owner)
    return client.get(job.get_absolute_url()).content.decode()


@pytest.mark.parametrize(
    ("done", "total", "phrase", "summary"),
    [
        (0, 1, "commits made", "Published 1 changed case."),
        (1, 2, "steps", "21 unchanged."),
        (0, 1, "suites upgraded", "Upgraded evals/refund.yaml."),
    ],
)
def test_a_done_job_shows_its_summary_without_its_last_progress(
    done: int, total: int, phrase: str, summary: str
) -> None:
    html = job_page(Job.State.DONE, done, total, phrase, summary)
    assert summary in html
    assert f"{done} of {total} {phrase}" not in html
    assert "<progress" not in html


def test_a_done_job_whose_progress_reached_its_end_keeps_it() -> None:
    html = job_page(Job.State.DONE, 12, 12, "suites written", "Imported 12 suites.")
    assert "12 of 12 suites written" in html


def test_a_failed_job_shows_where_it_stopped() -> None:
    html = job_page(Job.State.FAILED, 1, 2, "steps")
    assert "1 of 2 steps" in html

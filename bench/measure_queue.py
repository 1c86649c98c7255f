"""Server-side time and queries of My queue when every case of a 10,000-case workspace is
assigned to the reviewer (docs/user-guide.md, "Assignments and My queue").

Half the cases are in review, and the reviewer has approved a tenth of those, so the page
counts reviewed and waiting cases over real review events. On PostgreSQL the tables are
analyzed after the bulk write, as autovacuum soon does. Measured like the other pages
(measure_pages.py): Django's whole stack in this process, the median of repeated requests.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from .environment import USERNAME
from .figures import Figure, at_most, median, progress, report

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.test import Client

QUEUE_MILLISECONDS = 300
# my_queue reads its counts (two), its first waiting case, the last look and the page's rows,
# whatever the queue's length, and remembers the look (four queries with the transaction); the
# page adds the session and the user.
QUEUE_QUERIES = 11


def measure_queue(name: str, requests: int) -> list[Figure]:
    """Assign every case of workspace `name` to the benchmark's account, then time `requests`
    GETs of My queue after a few to warm up; report the median and the queries."""
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    reviewer = User.objects.get(username=USERNAME)
    assigned = _assign_everything(name, reviewer)
    client = Client()
    client.force_login(reviewer)
    url = reverse("my_queue")
    progress(f"timing My queue ({assigned} cases assigned)")
    for _ in range(3):
        _get(client, url)
    with CaptureQueriesContext(connection) as captured:
        _get(client, url)
    queries = len(captured)
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        _get(client, url)
        times.append(time.perf_counter() - start)
    return [
        report(Figure("my_queue_p50", median(times) * 1000, "ms", at_most(QUEUE_MILLISECONDS))),
        report(Figure("my_queue_queries", queries, "queries", at_most(QUEUE_QUERIES))),
    ]


def _assign_everything(name: str, reviewer: User) -> int:
    """Every case of the workspace assigned to `reviewer`; half in review, a tenth of those
    approved by them. Returns how many cases."""
    from django.db import connection, transaction

    from evals_app.models import Case, ReviewAssignment, ReviewEvent, ReviewStatus

    cases = list(
        Case.objects.filter(suite__workspace__name=name)
        .order_by("suite__path", "position")
        .values_list("pk", flat=True)
    )
    in_review = cases[::2]
    approved = in_review[::10]
    with transaction.atomic():
        Case.objects.filter(pk__in=in_review).update(status=ReviewStatus.IN_REVIEW)
        ReviewAssignment.objects.bulk_create(
            (ReviewAssignment(case_id=pk, reviewer=reviewer) for pk in cases), batch_size=1000
        )
        ReviewEvent.objects.bulk_create(
            (
                ReviewEvent(
                    case_id=pk,
                    actor=reviewer,
                    action=ReviewEvent.Action.APPROVED,
                    from_status=ReviewStatus.IN_REVIEW,
                    to_status=ReviewStatus.IN_REVIEW,
                )
                for pk in approved
            ),
            batch_size=1000,
        )
    if connection.vendor == "postgresql":
        # As autovacuum does a minute or so after a bulk write: until then PostgreSQL's planner
        # takes the reviewer's thousands of assignments for a handful. Measured: the page as it
        # opens from then on.
        tables = [model._meta.db_table for model in (Case, ReviewAssignment, ReviewEvent)]
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {', '.join(tables)}")
    return len(cases)


def _get(client: Client, url: str) -> None:
    response = client.get(url)
    if response.status_code != 200:
        raise RuntimeError(f"GET {url} answered {response.status_code}")

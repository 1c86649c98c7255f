"""Server-side time and queries of the suite page (1,000 cases) and the editor (50 turns).

Requests go through Django's whole stack (middleware, view, template) in this process, with
the production settings the benchmark runs under; the median of repeated requests is reported.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from tests.workload.generate import GeneratedWorkspace

from .figures import Figure, at_most, median, progress, report

if TYPE_CHECKING:
    from django.test import Client

PAGE_MILLISECONDS = 50
# The page tests assert that these do not grow with cases or turns; the benchmark reports them.
SUITE_QUERIES = 12  # as tests/pages/test_page_query_counts.py counts them
EDITOR_QUERIES = 15


def measure_pages(workspace: GeneratedWorkspace, name: str, requests: int) -> list[Figure]:
    """Time `requests` GETs of each page after a few to warm up; report medians and queries."""
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from evals_app.models import Case, Workspace

    stored = Workspace.objects.get(name=name)
    suite = stored.suites.get(path=workspace.first_suite)
    case = suite.cases.get(case_id=workspace.long_case_id)
    client = Client()
    client.force_login(User.objects.get(username="bench"))
    pages = {
        "suite_page": (reverse("suite_detail", args=[stored.slug, suite.pk]), SUITE_QUERIES),
        "editor_page": (
            reverse("case_editor", args=[stored.slug, suite.pk, case.pk]),
            EDITOR_QUERIES,
        ),
    }
    cases = Case.objects.filter(suite=suite).count()
    progress(f"timing the suite page ({cases} cases) and the editor (50 turns)")
    figures = []
    for page, (url, query_limit) in pages.items():
        for _ in range(3):
            _get(client, url)
        with CaptureQueriesContext(connection) as captured:
            _get(client, url)
        queries = len(captured)  # now: the next request clears the log it reads
        times = []
        for _ in range(requests):
            start = time.perf_counter()
            _get(client, url)
            times.append(time.perf_counter() - start)
        milliseconds = median(times) * 1000
        figures.append(
            report(Figure(f"{page}_p50", milliseconds, "ms", at_most(PAGE_MILLISECONDS)))
        )
        figures.append(report(Figure(f"{page}_queries", queries, "queries", at_most(query_limit))))
    return figures


def _get(client: Client, url: str) -> None:
    response = client.get(url)
    if response.status_code != 200:
        raise RuntimeError(f"GET {url} answered {response.status_code}")

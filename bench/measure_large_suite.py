"""The pages that must stay fast however many cases there are (docs/performance.md): one suite
of `cases` cases searched, sorted by last change and filtered by warnings; a case's history
after 1,000 saves; the API's case list; the workspace list and the workspace's search.

The large suite is made from the imported workspace's cases, copied round-robin under new
ids (their stored summaries with them, as a worker would have left them), so that any size
is quick to build; requests go through Django's whole stack in this process, as in
measure_pages.py, and the median of repeated requests is reported.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import cycle, islice
from typing import TYPE_CHECKING, Any

from .figures import Figure, at_most, median, progress, report

if TYPE_CHECKING:
    from django.test import Client

    from evals_app.models import Suite, Workspace

LARGE_SUITE = "evals/large.yaml"
SAVES = 1000  # the history measured: a case saved this many times
BATCH = 2000
SEARCH_MILLISECONDS = 100
API_MILLISECONDS = 100
PAGE_MILLISECONDS = 300


@dataclass(frozen=True)
class LargeSuite:
    """What the measurements open: the workspace, its large suite, an id and a word to find."""

    workspace: Workspace
    suite: Suite
    rare_id: str
    rare_word: str
    saved_case_pk: int


def measure_large_suite(name: str, cases: int, requests: int) -> list[Figure]:
    """Build a suite of `cases` cases in the workspace `name`, then time its pages."""
    large = build_large_suite(name, cases)
    from django.contrib.auth.models import User
    from django.test import Client
    from django.urls import reverse

    from tests.factories import api_token

    from .environment import USERNAME

    client = Client()
    account = User.objects.get(username=USERNAME)
    client.force_login(account)
    api = {"HTTP_AUTHORIZATION": f"Bearer {api_token(account, 'bench')}"}
    slug = large.workspace.slug
    suite_url = reverse("suite_detail", args=[slug, large.suite.pk])
    case_url = reverse("case_history", args=[slug, large.suite.pk, large.saved_case_pk])
    timed = {
        "large_suite_search_id": (f"{suite_url}?q={large.rare_id}", SEARCH_MILLISECONDS, {}),
        "large_suite_search_word": (f"{suite_url}?q={large.rare_word}", SEARCH_MILLISECONDS, {}),
        "large_suite_sorted_by_change": (f"{suite_url}?sort=-changed", PAGE_MILLISECONDS, {}),
        "large_suite_with_warnings": (f"{suite_url}?warnings=with", PAGE_MILLISECONDS, {}),
        "history_page": (case_url, PAGE_MILLISECONDS, {}),
        "api_case_list_page": (
            f"/api/v1/workspaces/{slug}/cases?suite={LARGE_SUITE}&limit=100",
            API_MILLISECONDS,
            api,
        ),
        "workspace_list": (reverse("workspace_list"), PAGE_MILLISECONDS, {}),
        "workspace_search": (
            reverse("workspace_search", args=[slug]) + f"?q={large.rare_word}",
            SEARCH_MILLISECONDS,
            {},
        ),
    }
    progress(f"timing the pages of a suite of {cases} cases")
    figures = []
    for figure, (url, limit, headers) in timed.items():
        milliseconds = _median_milliseconds(client, url, headers, requests)
        figures.append(report(Figure(f"{figure}_p50", milliseconds, "ms", at_most(limit))))
    return figures


def build_large_suite(name: str, cases: int) -> LargeSuite:
    """The suite LARGE_SUITE of `cases` cases in workspace `name`, and one case saved SAVES
    times."""
    from django.db import connection, transaction

    from evals_app.models import Case, Revision, Suite, Workspace
    from evals_app.services.cases.search_index import update_planner_statistics

    workspace = Workspace.objects.get(name=name)
    sources = list(Case.objects.filter(suite__workspace=workspace).order_by("pk")[:1000])
    suite = Suite.objects.create(
        workspace=workspace,
        path=LARGE_SUITE,
        document={"description": "Many cases", "evalcases": []},
    )
    progress(f"copying {cases} cases into {LARGE_SUITE}")
    rows = _copies(suite, sources, cases)
    while batch := list(islice(rows, BATCH)):
        with transaction.atomic():
            Case.objects.bulk_create(batch)
    middle = cases // 2
    rare_id = f"large-{middle:06d}"
    # A word of one case only: its outcome is given one.
    rare_word = "zanzibarish"
    chosen = Case.objects.get(suite=suite, case_id=rare_id)
    chosen.document = {**chosen.document, "outcome": f"Mentions {rare_word} once."}
    chosen.save()
    progress(f"saving one case {SAVES} times")
    Revision.objects.bulk_create(
        Revision(
            case=chosen,
            number=number,
            snapshot={**chosen.document, "outcome": f"Version {number}."},
            summary="edited",
        )
        for number in range(1, SAVES + 1)
    )
    # What the worker does after an import or sync of this many cases.
    update_planner_statistics(connection)
    return LargeSuite(workspace, suite, rare_id, rare_word, chosen.pk)


def _copies(suite: Suite, sources: list[Any], cases: int) -> Iterator[Any]:
    from evals_app.models import Case
    from evals_app.services.imports.batches import SUMMARY_COLUMNS

    copied = ["status", *SUMMARY_COLUMNS]
    for position, source in enumerate(islice(cycle(sources), cases)):
        case_id = f"large-{position:06d}"
        yield Case(
            suite=suite,
            position=position,
            case_id=case_id,
            document={**source.document, "id": case_id},
            **{field: getattr(source, field) for field in copied},
        )


def _median_milliseconds(client: Client, url: str, headers: dict[str, str], requests: int) -> float:
    for _ in range(2):
        _get(client, url, headers)
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        _get(client, url, headers)
        times.append(time.perf_counter() - start)
    return median(times) * 1000


def _get(client: Client, url: str, headers: dict[str, str]) -> None:
    response = client.get(url, **headers)  # type: ignore[arg-type]
    if response.status_code != 200:
        raise RuntimeError(f"GET {url} answered {response.status_code}")

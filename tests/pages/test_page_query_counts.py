"""The suite page, the editor and the preview use as many queries for a suite of 1,000 cases
and a case of 50 turns as for small ones (the time is measured by `make bench`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from evals_app.models import Case, Suite
from evals_app.services.imports.folders import import_workspace
from tests.editor.test_case_editor_views import form_of
from tests.workload.generate import LONG_CASE_ID, generate_workspace

pytestmark = pytest.mark.django_db

SUITE_PAGE_QUERIES = 12  # session, user, workspace, suite, the page of cases, files, conflicts,
# summaries pending, the review form, the reviewers an owner may assign cases to, the suite's
# last run with AgentV and the page's cases' last results
EDITOR_QUERIES = 15  # with the review form, its rules, the reviews, the assignments, the
# case's open suggestions and its last runs with AgentV


@pytest.fixture
def suites(tmp_path: Path) -> tuple[Suite, Suite]:
    """The first suite of a generated workspace of 1,000 cases, and of one of 5 cases."""
    found = []
    for name, cases in (("big", 1000), ("small", 5)):
        generated = generate_workspace(tmp_path / name, cases=cases, seed=7)
        workspace = import_workspace(generated.root, name).workspace
        found.append(workspace.suites.get(path=generated.first_suite))
    big, small = found
    return big, small


def queries(client: Client, method: str, url: str, status: int = 200, **extra: Any) -> int:
    """The number of queries of the second of two requests (the first may refresh summaries);
    both must answer `status`."""
    response = getattr(client, method)(url, **extra)
    assert response.status_code == status
    with CaptureQueriesContext(connection) as captured:
        response = getattr(client, method)(url, **extra)
    assert response.status_code == status
    return len(captured)


def test_the_suite_page_of_1000_cases_uses_as_many_queries_as_a_small_one(
    signed_in: Client, suites: tuple[Suite, Suite]
) -> None:
    counts = [
        queries(signed_in, "get", reverse("suite_detail", args=[s.workspace.slug, s.pk]))
        for s in suites
    ]

    assert counts[0] == counts[1] <= SUITE_PAGE_QUERIES


def test_searching_1000_cases_uses_as_many_queries_as_a_small_suite(
    signed_in: Client, suites: tuple[Suite, Suite]
) -> None:
    counts = [
        queries(
            signed_in,
            "get",
            reverse("suite_detail", args=[s.workspace.slug, s.pk]),
            data={"q": "order"},
        )
        for s in suites
    ]

    assert counts[0] == counts[1]


@pytest.mark.parametrize(
    "listing",
    [
        {"status": "draft"},
        {"warnings": "with"},
        {"warnings": "without"},
        {"lint": "with"},
        {"lint": "without"},
        {"markers": "markers"},
        {"markers": "cannot"},
        {"tag": "smoke"},
        {"sort": "-changed"},
        {"sort": "status"},
        {"q": "order", "tag": "billing", "markers": "flat", "sort": "-id", "page": "2"},
    ],
    ids=lambda listing: "&".join(f"{name}={value}" for name, value in listing.items()),
)
def test_filtering_and_sorting_1000_cases_uses_as_many_queries_as_a_small_suite(
    signed_in: Client, suites: tuple[Suite, Suite], listing: dict[str, str]
) -> None:
    counts = [
        queries(
            signed_in,
            "get",
            reverse("suite_detail", args=[s.workspace.slug, s.pk]),
            data=listing,
        )
        for s in suites
    ]

    # At most two more than the plain page: the tag's candidates, the summaries' freshness.
    # A page the filter leaves empty asks neither the cases' last run results nor their places
    # (nothing to ask) and counts the suite instead, so the two may differ by one or two, never
    # with the suite's size.
    assert abs(counts[0] - counts[1]) <= 2
    assert max(counts) <= SUITE_PAGE_QUERIES + 2


def editor_url(case: Case, suffix: str = "") -> str:
    suite = case.suite
    return reverse("case_editor", args=[suite.workspace.slug, suite.pk, case.pk]) + suffix


def test_the_editor_and_preview_of_a_50_turn_case_use_as_many_queries_as_for_2_turns(
    signed_in: Client, suites: tuple[Suite, Suite]
) -> None:
    big, _ = suites
    long = big.cases.get(case_id=LONG_CASE_ID)
    short = min(big.cases.exclude(pk=long.pk), key=lambda case: case.input_turns)
    assert (long.input_turns, short.input_turns) == (50, 2)

    editor = [queries(signed_in, "get", editor_url(case)) for case in (long, short)]
    previews = []
    for case in (long, short):
        form = form_of(signed_in.get(editor_url(case)).content.decode())
        previews.append(
            queries(
                signed_in,
                "post",
                editor_url(case, "preview/"),
                data=json.dumps(form),
                content_type="application/json",
                HTTP_HX_REQUEST="true",
            )
        )

    assert editor[0] == editor[1] <= EDITOR_QUERIES
    assert previews[0] == previews[1]

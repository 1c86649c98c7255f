"""The suite page's Run all button counts the suite's cases after every change of the list made
without a reload (the list is swapped in; the count comes along, out of band)."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from evals_app.models import Suite
from tests import factories

pytestmark = pytest.mark.django_db


def label(count: int) -> str:
    noun = "case" if count == 1 else "cases"
    return f'<span id="run-all-label" hx-swap-oob="true">Run all {count} {noun}</span>'


def suite_with(*case_ids: str) -> tuple[Client, Suite]:
    workspace = factories.workspace()
    suite = factories.suite(workspace)
    factories.suite(workspace, "evals/other.yaml")
    for case_id in case_ids:
        factories.case(suite, case_id)
    client = Client()
    client.force_login(factories.admin())
    return client, suite


@override_settings(AGENTV_RUNS_ENABLED=True)
def test_moving_a_case_away_counts_the_cases_left() -> None:
    client, suite = suite_with("one", "two")
    other = suite.workspace.suites.get(path="evals/other.yaml")
    url = reverse("case_bulk", args=[suite.workspace.slug, suite.pk])
    data = {"action": "move", "target": other.pk, "cases": [suite.cases.get(case_id="one").pk]}

    html = client.post(url, data, HTTP_HX_REQUEST="true").content.decode()

    assert label(1) in html


@override_settings(AGENTV_RUNS_ENABLED=True)
def test_duplicating_a_case_counts_the_copy() -> None:
    client, suite = suite_with("one", "two")
    case = suite.cases.get(case_id="one")
    url = reverse("case_duplicate", args=[suite.workspace.slug, suite.pk, case.pk])

    html = client.post(url, HTTP_HX_REQUEST="true").content.decode()

    assert label(3) in html


@override_settings(AGENTV_RUNS_ENABLED=True)
def test_the_full_page_counts_the_cases_in_the_button_itself() -> None:
    client, suite = suite_with("one")
    html = client.get(reverse("suite_detail", args=[suite.workspace.slug, suite.pk])).content
    assert b'<span id="run-all-label">Run all 1 case</span>' in html
    assert b"hx-swap-oob" not in html

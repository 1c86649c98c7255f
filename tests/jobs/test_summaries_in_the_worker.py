"""The worker brings case summaries up to date after a change of a whole workspace's
formatting (docs/performance.md, "Summaries"); the suite page meanwhile only says so."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, Suite, Workspace
from evals_app.services.cases.summaries import is_current
from tests import factories
from tests.workers import Worker, until


@pytest.fixture
def team(transactional_db: None) -> Workspace:
    """A workspace of three cases, the second referring to a missing file."""
    workspace = factories.workspace("Team")
    suite = factories.suite(workspace, "evals/review.yaml")
    for case_id in ("first", "second", "third"):
        factories.case(suite, case_id)
    factories.attach_file(suite.cases.get(case_id="second"), "notes.md")
    return workspace


def all_current(workspace: Workspace) -> bool:
    suites = {suite.pk: suite for suite in Suite.objects.filter(workspace=workspace)}
    cases = Case.objects.filter(suite__workspace=workspace)
    return all(is_current(case, suites[case.suite_id]) for case in cases)


def test_new_guideline_patterns_are_applied_by_the_worker_and_the_page_says_so_meanwhile(
    client: Client, team: Workspace, tasks_in_the_database: object
) -> None:
    owner = factories.member(team, "owner", "olivia")
    client.force_login(owner)
    suite = team.suites.get()
    page = reverse("suite_detail", args=[team.slug, suite.pk])
    assert "1 warning</summary>" in client.get(page).content.decode()

    client.post(reverse("workspace_patterns", args=[team.slug]), {"patterns": "**/*.txt"})

    assert not all_current(team)
    html = client.get(page).content.decode()
    assert "Warnings and role markers are being recomputed" in html
    assert not all_current(team)  # the page computed nothing
    worker = Worker(tasks_in_the_database)  # type: ignore[arg-type]
    worker.start()
    try:
        until(lambda: all_current(team), lambda: "the worker never refreshed the summaries")
    finally:
        worker.stop()
    assert "being recomputed" not in client.get(page).content.decode()


def test_a_worker_that_starts_refreshes_summaries_a_migration_marked_out_of_date(
    team: Workspace, tasks_in_the_database: object
) -> None:
    """As the migration that added lint findings does: every summary out of date, and no
    refresh asked for; the next worker to start brings them back."""
    cases = Case.objects.filter(suite__workspace=team)
    expected = {case.case_id: case.lint_findings for case in cases}
    assert any(expected.values())  # the factory's cases have findings to find again
    cases.update(summary_current=False, lint_findings=[])
    worker = Worker(tasks_in_the_database)  # type: ignore[arg-type]
    worker.start()
    try:
        until(lambda: all_current(team), lambda: "the worker never refreshed the summaries")
    finally:
        worker.stop()
    assert {case.case_id: case.lint_findings for case in cases.all()} == expected

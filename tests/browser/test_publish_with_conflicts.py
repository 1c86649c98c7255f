"""Publish with an open conflict, in the browser: refused, naming the case linked on the page;
then, with "publish the other cases" ticked, the rest is published (docs/sync.md)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Case
from evals_app.services.cases.editing import save_case
from evals_app.services.repository.sync import sync_repository
from tests import factories
from tests.browser.pages import sign_in
from tests.git_repositories import linked_workspace, repository, suite_yaml

pytestmark = pytest.mark.browser

PATH = "evals/suite.eval.yaml"


def test_publish_is_refused_with_a_conflict_then_publishes_the_other_cases(
    page: Page, live_server: LiveServer, transactional_db: None, tmp_path: Path
) -> None:
    repo = repository(tmp_path / "repo")
    repo.commit({PATH: suite_yaml(("one", "First?"), ("two", "Second?"))})
    workspace = linked_workspace(repo)
    owner = factories.member(workspace, "owner", "olive")
    for case_id, question in (("one", "First, better?"), ("two", "Mine?")):
        case = Case.objects.get(case_id=case_id)
        document = copy.deepcopy(case.document)
        document["input"] = question
        save_case(case, document, case.version, owner)
    repo.commit({PATH: suite_yaml(("one", "First?"), ("two", "Theirs?"))})
    sync_repository(workspace)
    sign_in(page, owner, live_server.url)

    page.goto(workspace.get_absolute_url())
    conflicts = page.get_by_role("region", name="1 open conflict")
    expect(conflicts.get_by_role("link", name="two")).to_be_visible()
    page.get_by_label("Branch", exact=True).fill("evals-review")
    page.get_by_role("button", name="Publish").click()

    expect(
        page.get_by_text(
            f"Nothing was published: 1 case in conflict with the repository: {PATH} two."
        )
    ).to_be_visible()
    assert "evals-review" not in repo.git("branch", "--list")

    # Publish runs as a job: its page said why; back to the workspace to publish the rest.
    page.goto(workspace.get_absolute_url())
    page.get_by_label("Branch", exact=True).fill("evals-review")
    page.get_by_label("Publish the other cases").check()
    page.get_by_role("button", name="Publish").click()

    expect(page.get_by_text("Published 1 changed case as")).to_be_visible()
    expect(
        page.get_by_text(
            f"Held back, in conflict with the repository (its version kept): {PATH} two."
        )
    ).to_be_visible()
    text = repo.show("evals-review", PATH)
    assert "First, better?" in text
    assert "Theirs?" in text and "Mine?" not in text

    page.goto(workspace.get_absolute_url())
    page.get_by_role("region", name="1 open conflict").get_by_role("link", name="two").click()
    expect(page.get_by_role("region", name="The repository changed this case too")).to_be_visible()

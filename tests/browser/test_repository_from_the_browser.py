"""A linked repository in the browser: check for changes, apply, resolve a conflict, publish."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Case
from evals_app.services.cases.editing import save_case
from tests import factories
from tests.browser.pages import sign_in
from tests.git_repositories import linked_workspace, repository, suite_yaml

pytestmark = pytest.mark.browser

PATH = "evals/suite.eval.yaml"


def test_check_apply_resolve_and_publish(
    page: Page, live_server: LiveServer, transactional_db: None, tmp_path: Path
) -> None:
    repo = repository(tmp_path / "repo")
    repo.commit({PATH: suite_yaml(("one", "First?"), ("two", "Second?"))})
    workspace = linked_workspace(repo)
    owner = factories.member(workspace, "owner", "olive")
    case = Case.objects.get(case_id="two")
    mine = copy.deepcopy(case.document)
    mine["input"] = "Mine?"
    save_case(case, mine, case.version, owner)
    repo.commit({PATH: suite_yaml(("one", "First, reworded?"), ("two", "Theirs?"))})
    sign_in(page, owner, live_server.url)

    page.goto(workspace.get_absolute_url())
    page.get_by_role("button", name="Check for changes").click()
    expect(page.get_by_text("The branch is at")).to_be_visible()
    page.get_by_role("link", name="See each change with its diff").click()
    expect(page.get_by_role("heading", name="Changes in the repository")).to_be_visible()
    expect(page.get_by_role("row", name="conflict 1")).to_be_visible()
    expect(page.get_by_role("row", name="updated 1")).to_be_visible()
    page.get_by_role("button", name="Apply").click()
    expect(page.get_by_text("Conflict: evals/suite.eval.yaml two")).to_be_visible()

    page.goto(f"{live_server.url}/w/{workspace.slug}/suites/{case.suite_id}/cases/{case.pk}/")
    banner = page.get_by_role("region", name="The repository changed this case too")
    expect(banner).to_contain_text("Theirs?")
    banner.get_by_role("button", name="Keep mine").click()
    expect(page.get_by_text("Kept your version of two.")).to_be_visible()
    expect(banner).to_have_count(0)

    page.goto(workspace.get_absolute_url())
    page.get_by_label("Branch").fill("evals-review")
    page.get_by_role("button", name="Publish").click()
    expect(page.get_by_text("Published 1 changed case as")).to_be_visible()
    assert "Mine?" in repo.show("evals-review", PATH)

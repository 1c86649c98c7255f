"""A repository linked by URL from the browser (docs/sync.md, "Remotes"): link a file://
remote, edit a case, publish to a new branch, and find exactly one small commit there."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from cryptography.fernet import Fernet
from playwright.sync_api import Page, expect
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from tests import factories
from tests.browser.pages import editor_url, save_status, sign_in, text_of
from tests.git_repositories import bare_remote, repository

pytestmark = pytest.mark.browser

PATH = "evals/suite.eval.yaml"
ORIGINAL = (
    "description: Remote tests\n"
    "tests:\n"
    "- id: one\n  input: First?\n  expected_output: An answer.\n"
    "- id: two\n  input: Second?\n  expected_output: An answer.\n"
)


def test_link_edit_and_publish_to_a_new_branch_of_a_remote(
    page: Page,
    live_server: LiveServer,
    transactional_db: None,
    tmp_path: Path,
    settings: Settings,
) -> None:
    settings.AGENTV_REPOSITORIES_DIR = tmp_path / "clones"
    settings.AGENTV_LOCAL_REPOSITORIES_ROOT = str(tmp_path / "remotes")
    settings.AGENTV_CREDENTIALS_KEY = Fernet.generate_key().decode()
    work = repository(tmp_path / "work")
    work.commit({PATH: ORIGINAL})
    remote = bare_remote(work, tmp_path / "remotes" / "evals.git")
    base = remote.head("main")
    workspace = factories.workspace("Team evals")
    owner = factories.member(workspace, "owner", "olive")
    owner.is_staff = True  # a local repository is linked by staff only (docs/sync.md)
    owner.save()
    sign_in(page, owner, live_server.url)

    page.goto(live_server.url + workspace.get_absolute_url())
    page.get_by_label("Repository URL").fill(f"file://{remote.path}")
    page.get_by_label("Folder in the repository").fill("evals")
    page.get_by_role("button", name="Link").click()
    # The link's preview first, then the link once confirmed.
    page.get_by_role("button", name="Link and apply these changes").click()
    expect(page.get_by_text(f"Linked file://{remote.path} at")).to_be_visible()

    page.goto(editor_url(workspace, "two"))
    expect(page.get_by_role("region", name="Expanded test two")).to_be_visible()
    expect(text_of(page, 1)).to_have_value("Second?")
    text_of(page, 1).fill("Second, edited?")
    page.get_by_role("button", name="Save").click()
    expect(save_status(page)).to_have_text("Saved (version 2).")

    page.goto(live_server.url + workspace.get_absolute_url())
    branch = page.get_by_role("form", name="Publish").get_by_label("Branch")
    expect(branch).to_have_value(f"agentv-web/team-evals-{date.today().isoformat()}")
    branch.fill("agentv-web/from-the-browser")
    page.get_by_role("button", name="Publish").click()
    expect(page.get_by_text("Published 1 changed case as")).to_contain_text("pushed to the remote")

    commits = remote.git("rev-list", f"{base}..agentv-web/from-the-browser").split()
    assert len(commits) == 1
    assert remote.git("rev-parse", f"{commits[0]}^").strip() == base
    # One line of one file: the edited question (the rest keeps the repository's bytes).
    changed = remote.git("diff", "--numstat", base, commits[0]).split()
    assert changed == ["1", "1", PATH]
    assert "Second, edited?" in remote.show(commits[0], PATH)

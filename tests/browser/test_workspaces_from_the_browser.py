"""A workspace from nothing, in the browser: create it, import a .zip into it, rename a suite
and delete it after the confirmation, then read it all in the Activity feed."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Membership, Suite, Workspace
from tests import factories
from tests.browser.pages import sign_in

pytestmark = pytest.mark.browser


def test_create_a_workspace_import_a_zip_rename_and_delete_a_suite(
    page: Page, live_server: LiveServer, transactional_db: None, tmp_path: Path
) -> None:
    account = factories.user("alice", password=None)
    sign_in(page, account, live_server.url)
    archive = tmp_path / "support-evals.zip"
    archive.write_bytes(
        factories.zip_archive(
            {
                "support-evals/evals/refunds.yaml": factories.eval_document(
                    factories.simple_case("refund-twice"), factories.simple_case("refund-late")
                ),
                "support-evals/prompts/tone.instructions.md": "Be kind.",
            }
        )
    )

    page.goto("/")
    page.get_by_role("link", name="New workspace").click()
    page.get_by_label("Name").fill("Support evals")
    page.get_by_role("button", name="Create workspace").click()
    expect(page.get_by_role("heading", name="Support evals", level=1)).to_be_visible()
    expect(page.get_by_text("Created Support evals. You are its owner.")).to_be_visible()

    page.get_by_role("link", name="Workspaces").first.click()
    page.get_by_role("link", name="Import from .zip").click()
    page.get_by_label("Workspace folder as a .zip").set_input_files(archive)
    page.get_by_label("Workspace name (default: the folder's name)").fill("Support evals")
    page.get_by_role("button", name="Import").click()
    # Into the workspace just made: a re-import, which says what it did to the cases.
    expect(
        page.get_by_text(
            "Re-imported into Support evals: 2 added, 0 changed, 0 kept, 0 in conflict."
        )
    ).to_be_visible()
    page.get_by_role("link", name="Open the workspace").click()

    page.get_by_role("link", name="evals/refunds.yaml").click()
    page.get_by_role("link", name="Rename suite").click()
    page.get_by_label("Path of the eval file").fill("evals/billing/refunds.yaml")
    page.get_by_role("button", name="Rename suite").click()
    expect(page.get_by_role("heading", name="evals/billing/refunds.yaml", level=1)).to_be_visible()
    expect(page.get_by_role("link", name="refund-late")).to_be_visible()

    page.get_by_role("link", name="Delete suite").click()
    expect(page.get_by_text("its 2 cases")).to_be_visible()
    page.get_by_role("button", name="Yes, delete evals/billing/refunds.yaml").click()
    expect(page.get_by_text("Deleted evals/billing/refunds.yaml and its 2 cases.")).to_be_visible()
    expect(page.get_by_text("No suites yet.")).to_be_visible()

    page.get_by_role("link", name="Activity").click()
    entries = page.locator("ol.activity > li")
    expect(entries.nth(0)).to_contain_text("alice deleted suite evals/billing/refunds.yaml")
    expect(entries.nth(1)).to_contain_text("alice renamed suite evals/billing/refunds.yaml")
    expect(entries.nth(2)).to_contain_text("alice imported suite evals/refunds.yaml")
    expect(entries.nth(3)).to_contain_text("alice created the workspace Support evals")

    workspace = Workspace.objects.get(name="Support evals")
    assert workspace.memberships.get().role == Membership.Role.OWNER
    assert not Suite.objects.filter(workspace=workspace).exists()


def test_a_zip_that_leaves_its_folder_is_refused_on_the_page(
    page: Page,
    live_server: LiveServer,
    transactional_db: None,
    tmp_path: Path,
) -> None:
    sign_in(page, factories.user("mallory", password=None), live_server.url)
    archive = tmp_path / "evil.zip"
    archive.write_bytes(factories.zip_archive({"evals/a.yaml": "x", "../escape.md": "Gotcha."}))

    page.goto("/workspaces/import/")
    page.get_by_label("Workspace folder as a .zip").set_input_files(archive)
    page.get_by_role("button", name="Import").click()

    # The import's job, which tests run at once, says why it refused the archive.
    refusal = page.get_by_role("region", name="Failed")
    expect(refusal).to_contain_text("../escape.md: its path leaves the folder (..).")
    assert not Workspace.objects.exists()

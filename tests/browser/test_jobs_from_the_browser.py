"""A .zip import from the browser runs in a real worker: the page follows its progress and
opens the result, while another person's page answers at once (docs/jobs.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests import factories
from tests.browser.pages import PASSWORD, sign_in
from tests.workers import Worker

# Enough cases that the import is still running while the page polls it.
ARCHIVE = factories.zip_archive(
    {
        f"support/evals/suite-{n:04}.yaml": factories.eval_document(
            *[factories.simple_case(f"q{i}") for i in range(10)]
        )
        for n in range(1500)
    }
)


@pytest.fixture
def worker(
    transactional_db: None, tasks_in_the_database: Path, live_server: LiveServer
) -> Iterator[Worker]:
    """A worker the test starts when it wants; stopped after the test."""
    waiting = Worker(tasks_in_the_database)
    yield waiting
    waiting.stop()


def test_a_zip_import_shows_its_progress_then_opens_the_workspace(
    new_page: Callable[..., Page], live_server: LiveServer, worker: Worker
) -> None:
    page = new_page()
    sign_in(page, factories.user("alice", PASSWORD), live_server.url)
    page.goto("/workspaces/import/")
    page.get_by_label("Workspace folder as a .zip").set_input_files(
        {"name": "support.zip", "mimeType": "application/zip", "buffer": ARCHIVE}
    )
    page.get_by_role("button", name="Import").click()
    status = page.locator("#job-status")
    expect(page.get_by_role("heading", name="Import a .zip", level=1)).to_be_visible()
    expect(status).to_contain_text("Waiting for the worker")

    worker.start()
    other = new_page()
    sign_in(other, factories.user("bob", PASSWORD), live_server.url)
    other.goto("/", timeout=5_000)  # another person's page does not wait for the job
    expect(other.get_by_role("heading", name="Workspaces", level=1)).to_be_visible()

    # The same page, polled, follows the job to its end.
    expect(status.get_by_role("heading", name="Done")).to_be_visible(timeout=60_000)
    expect(status).to_contain_text("1500 of 1500 suites written")
    expect(status).to_contain_text("Imported support: 1500 suites, 15000 cases and 0 files.")
    page.get_by_role("link", name="Open the workspace").click()

    expect(page.get_by_role("heading", name="support", level=1)).to_be_visible()


def test_the_header_shows_a_running_job(
    new_page: Callable[..., Page], live_server: LiveServer, tasks_in_the_database: Path
) -> None:
    page = new_page()
    sign_in(page, factories.user("alice", PASSWORD), live_server.url)
    page.goto("/workspaces/import/")
    page.get_by_label("Workspace folder as a .zip").set_input_files(
        {"name": "support.zip", "mimeType": "application/zip", "buffer": ARCHIVE}
    )
    page.get_by_role("button", name="Import").click()
    page.goto("/")

    expect(page.get_by_role("link", name="Import a .zip: queued")).to_be_visible()

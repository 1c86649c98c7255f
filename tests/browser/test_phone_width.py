"""Every page fits a phone: at 390 px wide nothing scrolls sideways (the document is no wider
than the window); wide content (tables, code, diffs) scrolls inside its own box."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Case, Membership, Workspace
from evals_app.services.cases.editing import save_case
from evals_app.services.cases.list_changes import create_case
from evals_app.services.imports.folders import import_workspace
from evals_app.services.suites.eval_files import create_suite
from evals_app.services.workspaces.invitations import invitation_token
from tests.browser.pages import MULTI_TURN, sign_in
from tests.factories import admin, member

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LONG = "a-really-long-name-without-any-space-" * 3
OLDER_FILES = Path(__file__).resolve().parents[1] / "fixtures" / "upgrade"


def every_page(workspace: Workspace, older: Workspace) -> dict[str, str]:
    """The URL of each page of the app, by name."""
    suite = workspace.suites.get(path="evals/coding/debug-session.yaml")
    case = Case.objects.get(suite=suite, case_id=MULTI_TURN)
    file = workspace.files.first()
    assert file is not None
    old_suite = older.suites.get(path="evals/seeds.yaml")
    slug, suite_args, case_args = workspace.slug, [workspace.slug, suite.pk], []
    case_args = [*suite_args, case.pk]
    return {
        "workspaces": reverse("workspace_list"),
        "new workspace": reverse("workspace_create"),
        "import": reverse("workspace_import"),
        "workspace": workspace.get_absolute_url(),
        "workspace settings": reverse("workspace_settings", args=[slug]),
        "activity": reverse("activity", args=[slug]),
        "search": reverse("workspace_search", args=[slug]) + "?q=review",
        "review queue": reverse("review_queue"),
        "API tokens": reverse("api_tokens"),
        "profile": reverse("profile"),
        "deleted cases": reverse("deleted_list", args=[slug]),
        "new file": reverse("file_create", args=[slug]),
        "file": reverse("file_edit", args=[slug, file.pk]),
        "suite": reverse("suite_detail", args=suite_args),
        "suite settings": reverse("suite_settings", args=suite_args),
        "upgrade": reverse("suite_upgrade", args=[older.slug, old_suite.pk]),
        "editor": reverse("case_editor", args=case_args),
        "YAML": reverse("case_yaml", args=case_args),
        "paste YAML": reverse("case_paste", args=suite_args),
        "history": reverse("case_history", args=case_args),
        "compare": reverse("case_compare", args=case_args) + "?from=1&to=2",
        "invitation": reverse(
            "invitation", args=[invitation_token(workspace, "new@example.com", "editor")]
        ),
    }


@pytest.fixture
def pages(example_workspace: Workspace) -> tuple[User, dict[str, str]]:
    """A superuser (who sees every page) and every page, the compare page with two revisions."""
    account = admin("root")
    older = import_workspace(OLDER_FILES, "Older files").workspace
    member(older, Membership.Role.OWNER)
    case = Case.objects.get(suite__workspace=example_workspace, case_id=MULTI_TURN)
    document = case.document
    document["outcome"] = "Names the line that fails, and why it fails on an empty cart."
    save_case(case, document, case.version, account)
    # Long unbroken names and text, as real files have them (paths, ids, URLs), in the
    # workspace's lists, its activity and the upgrade's before and after.
    suite = create_suite(example_workspace, f"evals/{'nested-folder/' * 6}{LONG}.yaml", account)
    create_case(suite, LONG, account)
    old_case = older.suites.get(path="evals/seeds.yaml").cases.first()
    assert old_case is not None
    old_document = old_case.document
    old_document["outcome"] = f"Links to https://example.com/{LONG}/{LONG} for the details."
    save_case(old_case, old_document, old_case.version, account)
    return account, every_page(example_workspace, older)


def overflow(page: Page) -> int:
    """How many pixels the document is wider than the window."""
    return int(page.evaluate("document.documentElement.scrollWidth")) - PHONE["width"]


def test_no_page_scrolls_sideways_on_a_phone(
    new_page: Callable[..., Page],
    pages: tuple[User, dict[str, str]],
    live_server: LiveServer,
) -> None:
    account, urls = pages
    page = new_page(PHONE)
    sign_in(page, account, live_server.url)
    wide = {}
    for name, url in urls.items():
        page.goto(url)
        page.wait_for_load_state("networkidle")
        if overflow(page) > 0:
            wide[name] = overflow(page)
    page.context.clear_cookies()
    page.goto(reverse("login"))
    if overflow(page) > 0:
        wide["login"] = overflow(page)

    assert wide == {}, f"pages wider than {PHONE['width']} px (by px): {wide}"

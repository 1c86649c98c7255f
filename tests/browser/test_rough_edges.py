"""The rough edges a new user met on a first walk through the app (docs/user-guide.md), each
checked in a real browser."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Case, Workspace
from evals_app.services.cases.editing import save_case
from tests.browser.conftest import EXAMPLE_WORKSPACE, editor_of
from tests.browser.pages import (
    MULTI_TURN,
    PASSWORD,
    SINGLE_TURN,
    open_editor,
    question,
    sign_in,
    text_of,
)
from tests.conftest import EXAMPLES
from tests.imports.test_workspace_import import zipped_folder

pytestmark = pytest.mark.browser


def test_an_invalid_tool_call_is_named_and_the_rest_of_the_preview_stays(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, MULTI_TURN)
    editor.get_by_role("button", name="Add a tool call to expected message 1").click()
    tool_call = editor.get_by_role("group", name="Tool call 1")
    # The new call's Tool field takes the focus once the swap settles; typing before that
    # could land in whichever field has the focus then.
    expect(tool_call.get_by_label("Tool", exact=True)).to_be_focused()
    tool_call.get_by_label("Input (JSON)").fill('{"order_id": ')

    expect(editor.get_by_text("Tool call 1 of expected message 1: not valid JSON")).to_be_visible()
    expect(question(editor)).to_be_visible()
    expect(editor.get_by_text("The preview cannot be shown")).to_have_count(0)
    expect(editor.get_by_text("expected-0-tool-0-input")).to_have_count(0)


def test_a_long_text_grows_to_a_limit_then_scrolls_and_the_preview_stays_beside_it(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, SINGLE_TURN)
    text = text_of(editor, 1)
    short_height = text.bounding_box()["height"]
    text.fill("\n".join(f"Line {number} of a long question." for number in range(1, 31)))
    expect(question(editor)).to_contain_text("Line 30 of a long question.")

    text.fill("\n".join(f"Line {number} of a long question." for number in range(1, 201)))

    expect(question(editor)).to_contain_text("Line 200 of a long question.")
    box = text.bounding_box()
    assert short_height < box["height"] <= 0.75 * editor.viewport_size["height"]
    assert text.evaluate("area => area.scrollHeight > area.clientHeight")
    text.evaluate("area => area.scrollIntoView({block: 'end'})")
    pane = editor.locator(".preview-pane").bounding_box()
    assert pane["y"] >= 0 and pane["x"] > box["x"] + box["width"]


def test_the_suite_list_describes_a_conversation_test_by_its_turns(
    editor: Page, example_workspace: Workspace
) -> None:
    suite = example_workspace.suites.get(path="evals/today/help-widget.eval.yaml")
    turns = len(suite.cases.get(case_id="order-lookup").document["turns"])

    editor.goto(reverse("suite_detail", args=[example_workspace.slug, suite.pk]))

    row = editor.get_by_role("row").filter(has_text="order-lookup")
    expect(row.locator('[data-label="Input turns"]')).to_have_text(f"{turns} turns · conversation")


def test_an_owner_invites_an_email_and_the_person_joins_with_the_link(
    new_page: Callable[..., Page], example_workspace: Workspace, live_server: LiveServer
) -> None:
    owner_page, newcomer_page = new_page(), new_page()
    owner = editor_of(example_workspace, "olivia")
    example_workspace.memberships.filter(user=owner).update(role="owner")
    sign_in(owner_page, owner, live_server.url)
    owner_page.goto(example_workspace.get_absolute_url())
    members = owner_page.get_by_role("form", name="Add a member")
    members.get_by_label("Username or email").fill("nora@example.com")
    members.get_by_label("Role").select_option(label="Reviewer")
    members.get_by_role("button", name="Add or change member").click()
    message = owner_page.get_by_text("No account has the email nora@example.com.")
    expect(message).to_be_visible()
    owner_page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    owner_page.get_by_role("button", name="Copy link").click()
    expect(owner_page.get_by_text("Copied to the clipboard.")).to_be_visible()
    link = re.fullmatch(
        r"https?://\S+/invitations/\S+/", owner_page.evaluate("navigator.clipboard.readText()")
    )
    assert link is not None
    assert owner_page.get_by_label("Link to copy").input_value() == link.group()

    newcomer_page.goto(link.group())
    newcomer_page.get_by_label("Username").fill("nora")
    newcomer_page.get_by_label("Password", exact=True).fill(PASSWORD)
    newcomer_page.get_by_label("Password again").fill(PASSWORD)
    newcomer_page.get_by_role("button", name="Create my account and join").click()

    expect(newcomer_page.get_by_text(f"you are Reviewer of {EXAMPLE_WORKSPACE}")).to_be_visible()
    expect(newcomer_page.get_by_role("heading", level=1)).to_contain_text(EXAMPLE_WORKSPACE)


def test_the_import_report_leads_with_its_link_and_folds_the_warnings(
    editor: Page, tmp_path: Path
) -> None:
    archive = tmp_path / "examples.zip"
    archive.write_bytes(zipped_folder(EXAMPLES, "examples"))
    editor.goto(reverse("workspace_import"))
    editor.get_by_label("Workspace folder as a .zip").set_input_files(archive)
    editor.get_by_role("button", name="Import").click()

    report = editor.locator("#job-status")
    expect(report.get_by_role("link").first).to_have_text("Open the workspace")
    warnings = report.locator("details").filter(has_text="5 notes")
    expect(warnings.locator("li").first).to_be_hidden()
    warnings.locator("summary").click()
    expect(warnings.locator("li").first).to_be_visible()


def test_the_first_tab_reaches_a_skip_link_to_the_content(editor: Page) -> None:
    editor.goto(reverse("workspace_list"))

    editor.keyboard.press("Tab")

    skip = editor.get_by_role("link", name="Skip to the content")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    editor.keyboard.press("Enter")
    expect(editor.locator("main")).to_be_focused()


def test_every_page_has_our_favicon(editor: Page) -> None:
    editor.goto(reverse("workspace_list"))

    icon = editor.locator('link[rel="icon"]').get_attribute("href")

    assert icon is not None and icon.endswith("favicon.svg")
    answer = editor.request.get(icon)
    assert answer.status == 200 and "<svg" in answer.text()


def test_each_fold_on_the_compare_page_says_what_it_unfolds(
    editor: Page, example_workspace: Workspace, alice: User
) -> None:
    case = Case.objects.get(suite__workspace=example_workspace, case_id=MULTI_TURN)
    document = case.document
    document["outcome"] = "Names the line that fails and why."
    save_case(case, document, case.version, alice)
    editor.goto(
        reverse("case_compare", args=[example_workspace.slug, case.suite_id, case.pk])
        + "?from=1&to=2"
    )

    folds = editor.locator("summary").filter(has_text=re.compile(r"Show \d+ unchanged lines"))
    names = [fold.evaluate("summary => summary.textContent") for fold in folds.all()]

    assert names and all(re.fullmatch(r"Show \d+ unchanged lines of .+", n) for n in names)
    assert len(set(names)) == len(names)


def test_the_workspace_search_finds_cases_in_every_suite(
    editor: Page, example_workspace: Workspace
) -> None:
    editor.goto(example_workspace.get_absolute_url())

    editor.get_by_label("Search every suite").fill("review")
    editor.get_by_role("button", name="Search").click()

    expect(editor.get_by_role("status")).to_contain_text("match “review”")
    groups = editor.locator(".search-group h2")
    expect(groups.first).to_be_visible()
    paths = groups.all_inner_texts()
    assert paths == sorted(paths) and "evals/coding/review.yaml" in paths
    editor.get_by_role("link", name="review-empty-diff").click()
    expect(editor.get_by_role("heading", level=1)).to_contain_text("review-empty-diff")


def test_an_editor_tags_the_selected_cases_from_the_suite_page(
    editor: Page, example_workspace: Workspace
) -> None:
    suite = example_workspace.suites.get(path="evals/coding/review.yaml")
    editor.goto(reverse("suite_detail", args=[example_workspace.slug, suite.pk]))
    editor.get_by_role("checkbox", name="Select review-empty-diff").check()
    editor.get_by_role("checkbox", name="Select review-ticket-timestamps").check()

    editor.get_by_label("Tag to add or remove").fill("nightly")
    editor.get_by_role("button", name="Add tag").click()

    expect(editor.get_by_text("Tagged “nightly”: 2 cases")).to_be_visible()
    row = editor.get_by_role("row").filter(has_text="review-empty-diff")
    expect(row.get_by_role("link", name="nightly")).to_be_visible()

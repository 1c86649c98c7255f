"""Pages as a person sees them: status table, compare's folds, phone-width editor, renames."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Case, Workspace
from evals_app.services.cases.editing import save_case
from tests.browser.pages import (
    MULTI_TURN,
    SINGLE_TURN,
    editor_url,
    open_editor,
    question,
    save_status,
    sign_in,
    text_of,
)

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


def stored(workspace: Workspace, case_id: str) -> Case:
    cases = Case.objects.select_related("suite")
    return cases.get(suite__workspace=workspace, case_id=case_id)


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_review_status_shows_every_label_and_count_apart(
    new_page: Callable[..., Page],
    alice: User,
    example_workspace: Workspace,
    live_server: LiveServer,
    viewport: dict[str, int] | None,
) -> None:
    page = new_page(viewport)
    sign_in(page, alice, live_server.url)
    page.goto(example_workspace.get_absolute_url())
    table = page.get_by_role("table", name=re.compile("Cases per review status"))

    rows = table.get_by_role("row")
    expect(rows).to_have_count(5)  # the header row, then one per status
    boxes = []
    for label in ("Draft", "In review", "Changes requested", "Approved"):
        row = table.get_by_role("row").filter(has=page.get_by_role("rowheader", name=label))
        expect(row.get_by_role("rowheader")).to_be_visible()
        expect(row.get_by_role("meter")).to_be_visible()
        header = row.get_by_role("rowheader").locator("span").bounding_box()
        count = row.get_by_role("cell").first.bounding_box()
        assert header and count
        width = viewport["width"] if viewport else 1280
        assert header["x"] >= 0 and header["x"] + header["width"] <= width, label
        assert header["x"] + header["width"] <= count["x"], f"{label} overlaps its count"
        boxes.append(header)
    for above, below in zip(boxes, boxes[1:], strict=False):
        assert above["y"] + above["height"] <= below["y"], "two labels overlap"


def test_compare_folds_unchanged_lines_behind_a_control(
    editor: Page, example_workspace: Workspace, alice: User
) -> None:
    case = stored(example_workspace, MULTI_TURN)
    document = case.document
    document["outcome"] = "Names the line that fails and why."
    save_case(case, document, case.version, alice)
    url = reverse("case_compare", args=[example_workspace.slug, case.suite_id, case.pk])

    editor.goto(f"{url}?from=1&to=2")

    judge = editor.get_by_label("Judge prompt, revision 1 and 2")
    fold = judge.locator("details").filter(has_text=re.compile(r"Show \d+ unchanged lines"))
    expect(fold.first).to_be_visible()
    hidden_line = fold.first.locator("tr").first
    expect(hidden_line).to_be_hidden()
    # The changed line shows, with unchanged context around it.
    expect(judge.locator("tr.replace")).to_contain_text("Names the line that fails")
    # The unchanged turns fold too; the page stays short.
    expect(editor.get_by_text(re.compile(r"Show \d+ unchanged turns"))).to_be_visible()
    assert editor.evaluate("document.documentElement.scrollHeight") < 2000

    fold.first.locator("summary").click()
    expect(hidden_line).to_be_visible()


def test_phone_width_editor_switches_between_edit_and_preview(
    new_page: Callable[..., Page],
    alice: User,
    example_workspace: Workspace,
    live_server: LiveServer,
) -> None:
    page = new_page(PHONE)
    sign_in(page, alice, live_server.url)
    page.goto(editor_url(example_workspace, SINGLE_TURN))
    switch = page.get_by_role("group", name="Show")

    expect(switch).to_be_visible()
    expect(text_of(page, 1)).to_be_visible()
    expect(question(page)).to_be_hidden()

    text_of(page, 1).fill("What does HTTP 429 mean, briefly?")
    switch.get_by_text("Preview").click()

    expect(question(page)).to_be_visible()
    expect(question(page)).to_have_text(re.compile("What does HTTP 429 mean, briefly?"))
    expect(text_of(page, 1)).to_be_hidden()
    assert question(page).bounding_box()["y"] < PHONE["height"]  # type: ignore[index]

    switch.get_by_text("Edit").click()
    expect(text_of(page, 1)).to_have_value("What does HTTP 429 mean, briefly?")


def test_desktop_editor_shows_both_without_a_switch(
    editor: Page, example_workspace: Workspace
) -> None:
    open_editor(editor, example_workspace, SINGLE_TURN)

    expect(editor.get_by_role("group", name="Show")).to_be_hidden()
    expect(text_of(editor, 1)).to_be_visible()
    expect(question(editor)).to_be_visible()


def test_heading_follows_a_renamed_id(editor: Page, example_workspace: Workspace) -> None:
    open_editor(editor, example_workspace, SINGLE_TURN)

    editor.get_by_label("Id", exact=True).fill("http-429-explained")
    editor.keyboard.press("Control+s")

    expect(save_status(editor)).to_contain_text("Saved")
    expect(editor.get_by_role("heading", level=1)).to_contain_text("http-429-explained")
    expect(editor.get_by_role("navigation", name="Breadcrumb")).to_contain_text(
        "http-429-explained"
    )
    expect(editor).to_have_title(re.compile("^http-429-explained · "))

"""Suggested edits in the browser: a reviewer edits a case in suggest mode and sends it; an
editor sees the change and applies it with one click."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Case, Comment, Membership, Revision, Suggestion
from evals_app.services.review.comments import start_thread
from tests import factories
from tests.browser.pages import add_turn, input_turns, question, sign_in, text_of

pytestmark = pytest.mark.browser


@pytest.fixture
def case(transactional_db: None) -> Case:
    workspace = factories.workspace("Suggesting team")
    suite = factories.suite(workspace)
    return factories.case(suite, "refund", ("system", "Be kind."), ("user", "Where is my refund?"))


def test_a_suggestion_is_made_and_applied(
    new_page: Callable[..., Page], live_server: LiveServer, case: Case
) -> None:
    workspace = case.suite.workspace
    rita = factories.member(workspace, Membership.Role.REVIEWER, "rita")
    ed = factories.member(workspace, Membership.Role.EDITOR, "ed")
    editor_path = reverse("case_editor", args=[workspace.slug, case.suite_id, case.pk])

    reviewer_page = new_page()
    sign_in(reviewer_page, rita, live_server.url)
    reviewer_page.goto(editor_path)
    reviewer_page.get_by_role("link", name="Suggest a change").first.click()
    text_of(reviewer_page, 2).fill("Where is my refund for order 42?")
    add_turn(reviewer_page, "assistant").fill("Let me check.")
    expect(question(reviewer_page)).to_contain_text("order 42")
    reviewer_page.get_by_label("Why (optional").fill("Name the order, @ed.")
    reviewer_page.get_by_role("button", name="Suggest this change").click()

    expect(reviewer_page.get_by_role("heading", level=1)).to_have_text(
        "Suggestion by rita on refund"
    )
    assert Case.objects.get(pk=case.pk).version == case.version  # the case is not changed
    suggested = Suggestion.objects.get().document

    editor_page = new_page()
    sign_in(editor_page, ed, live_server.url)
    editor_page.goto(editor_path)
    editor_page.get_by_role("link", name="Suggestion by rita").click()
    expect(editor_page.get_by_label("Formatted question: As it was and Suggested")).to_contain_text(
        "order 42"
    )
    editor_page.get_by_role("button", name="Apply the suggestion").click()

    expect(editor_page.get_by_role("status").first).to_contain_text("Applied the suggestion")
    expect(input_turns(editor_page)).to_have_count(3)
    expect(text_of(editor_page, 3)).to_have_value("Let me check.")
    applied = Case.objects.get(pk=case.pk)
    assert applied.document == suggested
    revision = Revision.objects.filter(case=case).order_by("-number").first()
    assert revision is not None
    assert (revision.author, revision.suggestion.author) == (ed, rita)


def test_a_suggestion_made_from_a_comment_on_a_turn_is_applied_by_the_author(
    new_page: Callable[..., Page], live_server: LiveServer, case: Case
) -> None:
    workspace = case.suite.workspace
    ann = factories.member(workspace, Membership.Role.REVIEWER, "ann")
    rita = factories.member(workspace, Membership.Role.REVIEWER, "rita")
    ed = factories.member(workspace, Membership.Role.EDITOR, "ed")
    start_thread(case, ann, "Which order?", "input", 1)
    editor_path = reverse("case_editor", args=[workspace.slug, case.suite_id, case.pk])

    reviewer_page = new_page()
    sign_in(reviewer_page, rita, live_server.url)
    reviewer_page.goto(editor_path)
    thread = reviewer_page.get_by_role("article", name="Thread on turn 2")
    thread.get_by_role("link", name="Suggest a change").click()
    expect(reviewer_page.locator("#answering")).to_contain_text("ann’s comment on turn 2")
    expect(text_of(reviewer_page, 2)).to_be_focused()
    text_of(reviewer_page, 2).fill("Where is my refund for order 42?")
    reviewer_page.get_by_role("button", name="Suggest this change").click()
    expect(reviewer_page.locator("#suggestion-answers")).to_contain_text("Which order?")

    editor_page = new_page()
    sign_in(editor_page, ed, live_server.url)
    editor_page.goto(editor_path)
    thread = editor_page.get_by_role("article", name="Thread on turn 2")
    expect(thread).to_contain_text("rita suggested a change")
    thread.get_by_role("link", name="see the suggestion").click()
    editor_page.get_by_role("button", name="Apply the suggestion").click()

    expect(editor_page.get_by_role("status").first).to_contain_text("Applied the suggestion")
    expect(text_of(editor_page, 2)).to_have_value("Where is my refund for order 42?")
    expect(editor_page.get_by_role("article", name="Thread on turn 2")).to_contain_text(
        "rita suggested a change (applied)"
    )
    assert Suggestion.objects.get().answers == ann_comment(case)


def ann_comment(case: Case) -> Comment:
    return Comment.objects.get(thread__case=case)

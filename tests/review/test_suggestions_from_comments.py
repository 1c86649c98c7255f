"""Suggest a change on a comment: the editor opens in suggest mode at the comment's turn, and the
suggestion made there answers the comment, shown from both sides (docs/user-guide.md,
"Suggested edits")."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from evals_app.models import Case, Comment, Suggestion, Workspace
from evals_app.services.review.comments import start_thread
from evals_app.services.review.suggestions import SuggestionError, suggest
from tests import factories
from tests.html_forms import form_fields
from tests.review.test_suggestions import edited, editor_url, logged_in, suggestion_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def workspace() -> Workspace:
    workspace = factories.workspace()
    suite = factories.suite(workspace)
    factories.case(suite, "refund", ("system", "Be kind."), ("user", "Where is my refund?"))
    factories.case(suite, "other", ("user", "Unrelated."))
    return workspace


def the_case(case_id: str = "refund") -> Case:
    return Case.objects.select_related("suite__workspace").get(case_id=case_id)


def comment_on_turn(workspace: Workspace) -> Comment:
    """ann's comment on the second input turn of the case."""
    author = factories.member(workspace, "reviewer", "ann")
    thread = start_thread(the_case(), author, "Name the order here.", "input", 1)
    return thread.comments.get()


def suggest_from(client: Client, comment: Comment, text: str) -> Client:
    """Follow the comment's Suggest a change, change its turn and send the suggestion."""
    case = the_case()
    page = client.get(editor_url(case, f"?suggest=1&comment={comment.pk}")).content.decode()
    fields = form_fields(page, "case-form")
    fields.update({"input-1-block-0-value": text, "action": "suggest"})
    response = client.post(editor_url(case), fields)
    assert response.status_code == 302, response.content.decode()
    return client


@pytest.mark.parametrize(
    ("role", "offered"), [("owner", True), ("editor", True), ("reviewer", True), ("viewer", False)]
)
def test_suggest_a_change_is_offered_beside_a_comment_to_who_may_suggest(
    workspace: Workspace, role: str, offered: bool
) -> None:
    comment = comment_on_turn(workspace)
    client = logged_in(factories.member(workspace, role))

    page = client.get(editor_url(the_case())).content.decode()

    link = editor_url(the_case(), f"?suggest=1&amp;comment={comment.pk}")
    assert (f'href="{link}"' in page) == offered


def test_a_viewer_who_follows_the_link_gets_the_read_only_editor(workspace: Workspace) -> None:
    comment = comment_on_turn(workspace)
    client = logged_in(factories.member(workspace, "viewer"))

    page = client.get(editor_url(the_case(), f"?suggest=1&comment={comment.pk}")).content
    assert b'name="mode"' not in page and b'name="answers"' not in page


def test_suggest_a_change_opens_suggest_mode_at_the_comments_turn(workspace: Workspace) -> None:
    comment = comment_on_turn(workspace)
    client = logged_in(factories.member(workspace, "reviewer", "rita"))

    page = client.get(editor_url(the_case(), f"?suggest=1&comment={comment.pk}")).content.decode()

    fields = form_fields(page, "case-form")
    assert (fields["mode"], fields["answers"]) == ("suggest", str(comment.pk))
    assert (
        'id="input-1-block-0-value" name="input-1-block-0-value" rows="2" class="grow" autofocus'
        in page
    )
    assert "In answer to" in page and "Name the order here." in page


def test_a_comment_on_the_whole_case_opens_suggest_mode_at_the_outcome(
    workspace: Workspace,
) -> None:
    author = factories.member(workspace, "reviewer", "ann")
    comment = start_thread(the_case(), author, "The outcome is vague.").comments.get()
    client = logged_in(factories.member(workspace, "reviewer", "rita"))

    page = client.get(editor_url(the_case(), f"?suggest=1&comment={comment.pk}")).content.decode()

    assert 'name="outcome" rows="2" class="grow" autofocus' in page


def test_a_comment_of_another_case_is_not_found(workspace: Workspace) -> None:
    author = factories.member(workspace, "reviewer", "ann")
    elsewhere = start_thread(the_case("other"), author, "Elsewhere.").comments.get()
    client = logged_in(factories.member(workspace, "reviewer", "rita"))

    response = client.get(editor_url(the_case(), f"?suggest=1&comment={elsewhere.pk}"))

    assert response.status_code == 404


def test_a_suggestion_cannot_answer_a_comment_of_another_case(workspace: Workspace) -> None:
    author = factories.member(workspace, "reviewer", "ann")
    elsewhere = start_thread(the_case("other"), author, "Elsewhere.").comments.get()
    case = the_case()

    with pytest.raises(SuggestionError, match="not a comment on refund"):
        suggest(case, author, edited(case.document, "Refund?"), case.version, answers=elsewhere.pk)
    assert not Suggestion.objects.exists()


def test_the_suggestion_made_from_a_comment_answers_it(workspace: Workspace) -> None:
    comment = comment_on_turn(workspace)
    rita = factories.member(workspace, "reviewer", "rita")
    case = the_case()

    suggest_from(logged_in(rita), comment, "Where is my refund for order 42?")

    suggestion = Suggestion.objects.get()
    assert suggestion.answers == comment
    assert suggestion.author == rita
    assert suggestion.document == edited(case.document, "Where is my refund for order 42?")


def test_the_thread_shows_the_suggestion_that_answers_it(workspace: Workspace) -> None:
    comment = comment_on_turn(workspace)
    rita = factories.member(workspace, "reviewer", "rita")
    suggest_from(logged_in(rita), comment, "Where is my refund for order 42?")
    suggestion = Suggestion.objects.get()

    page = logged_in(factories.member(workspace, "editor")).get(editor_url(the_case()))

    thread = page.content.decode().split(f'id="comment-{comment.pk}"', 1)[1].split("</article>")[0]
    assert "<strong>rita</strong> suggested a change" in thread
    assert f'href="{suggestion_url(suggestion)}"' in thread


def test_the_suggestion_shows_the_comment_it_answers(workspace: Workspace) -> None:
    comment = comment_on_turn(workspace)
    suggest_from(logged_in(factories.member(workspace, "reviewer", "rita")), comment, "Order 42?")
    suggestion = Suggestion.objects.get()

    page = logged_in(factories.member(workspace, "editor")).get(suggestion_url(suggestion))

    answered = page.content.decode().split('id="suggestion-answers"', 1)[1].split("</p>")[0]
    assert "ann’s comment on turn 2" in answered
    assert "Name the order here." in answered
    assert f'href="{editor_url(the_case())}#comment-{comment.pk}"' in answered


def test_a_closed_suggestion_stays_in_the_thread_it_answers(workspace: Workspace) -> None:
    comment = comment_on_turn(workspace)
    suggest_from(logged_in(factories.member(workspace, "reviewer", "rita")), comment, "Order 42?")
    suggestion = Suggestion.objects.get()
    editor = logged_in(factories.member(workspace, "editor"))
    editor.post(suggestion_url(suggestion), {"step": "apply"})

    page = editor.get(editor_url(the_case())).content.decode()

    assert "suggested a change (applied)" in page


def test_a_refused_suggestion_keeps_the_comment_it_answers(workspace: Workspace) -> None:
    comment = comment_on_turn(workspace)
    client = logged_in(factories.member(workspace, "reviewer", "rita"))
    case = the_case()
    page = client.get(editor_url(case, f"?suggest=1&comment={comment.pk}")).content.decode()
    fields = form_fields(page, "case-form")
    fields["action"] = "suggest"  # nothing changed: refused

    response = client.post(editor_url(case), fields)

    assert response.status_code == 422
    assert form_fields(response.content.decode(), "case-form")["answers"] == str(comment.pk)


def test_the_editor_reads_the_suggestions_answering_comments_in_constant_queries(
    workspace: Workspace,
) -> None:
    editor = logged_in(factories.member(workspace, "editor"))
    author = factories.member(workspace, "reviewer", "ann")

    def queries_with(count: int) -> int:
        case = the_case()
        for number in range(Suggestion.objects.count(), count):
            thread = start_thread(case, author, f"Comment {number}", "input", 1)
            changed = edited(case.document, f"Refund {number}?")
            suggest(case, author, changed, case.version, answers=thread.comments.get().pk)
        with CaptureQueriesContext(connection) as queries:
            assert editor.get(editor_url(case)).status_code == 200
        return len(queries)

    assert queries_with(1) == queries_with(6)

"""Suggested edits: a suggestion applied makes exactly its change (a revision credited to the
suggester and to who applied it), a stale one is refused, dismissing replies; who may suggest
and who may apply; the editor's suggest mode; notifications."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from evals_app.eval_files.errors import EvalFileError
from evals_app.models import Case, Notification, Suggestion, Workspace
from evals_app.services.cases.editing import save_case
from evals_app.services.review.suggestions import (
    SuggestionError,
    apply_suggestion,
    dismiss_suggestion,
    suggest,
)
from tests import factories
from tests.html_forms import form_fields

pytestmark = pytest.mark.django_db


@pytest.fixture
def workspace() -> Workspace:
    workspace = factories.workspace()
    suite = factories.suite(workspace)
    factories.case(suite, "refund", ("system", "Be kind."), ("user", "Where is my refund?"))
    factories.case(suite, "other", ("user", "Unrelated."))
    return workspace


def the_case() -> Case:
    return Case.objects.select_related("suite__workspace").get(case_id="refund")


def edited(document: dict[str, Any], text: str) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    changed["input_messages"][1]["content"] = text
    return changed


def logged_in(account: User) -> Client:
    client = Client()
    client.force_login(account)
    return client


def editor_url(case: Case, query: str = "") -> str:
    url = reverse("case_editor", args=[case.suite.workspace.slug, case.suite_id, case.pk])
    return f"{url}{query}"


def suggestion_url(suggestion: Suggestion) -> str:
    case = suggestion.case
    return reverse(
        "case_suggestion", args=[case.suite.workspace.slug, case.suite_id, case.pk, suggestion.pk]
    )


def test_an_applied_suggestion_makes_exactly_its_change(workspace: Workspace) -> None:
    reviewer = factories.member(workspace, "reviewer")
    editor = factories.member(workspace, "editor")
    case = the_case()
    before = copy.deepcopy(case.document)
    others = list(Case.objects.exclude(pk=case.pk).values_list("document", "version"))
    suggested = edited(before, "Where is my refund for order 42?")
    suggestion = suggest(case, reviewer, suggested, case.version, "Name the order.")

    applied = apply_suggestion(suggestion, editor)

    assert applied.document == suggested
    assert applied.version == case.version + 1
    assert list(Case.objects.exclude(pk=case.pk).values_list("document", "version")) == others


def test_an_applied_suggestion_is_a_revision_credited_to_both(workspace: Workspace) -> None:
    reviewer = factories.member(workspace, "reviewer", "rita")
    editor = factories.member(workspace, "editor", "ed")
    case = the_case()
    suggestion = suggest(case, reviewer, edited(case.document, "Refund?"), case.version)

    apply_suggestion(suggestion, editor)

    suggestion.refresh_from_db()
    revision = case.revisions.order_by("-number").first()
    assert suggestion.state == Suggestion.State.APPLIED
    assert suggestion.revision == revision
    assert revision is not None
    assert (revision.author, revision.suggestion.author) == (editor, reviewer)
    assert revision.summary == "applied suggestion by rita"
    assert revision.snapshot == edited(factories_document(), "Refund?")


def factories_document() -> dict[str, Any]:
    return {
        "id": "refund",
        "outcome": "Answers the question.",
        "input_messages": [
            {"role": "system", "content": "Be kind."},
            {"role": "user", "content": "Where is my refund?"},
        ],
    }


def test_a_suggestion_on_a_case_that_changed_since_is_refused(workspace: Workspace) -> None:
    reviewer = factories.member(workspace, "reviewer")
    editor = factories.member(workspace, "editor")
    case = the_case()
    suggestion = suggest(case, reviewer, edited(case.document, "Refund?"), case.version)
    moved_on = save_case(case, edited(case.document, "Where's my money?"), case.version, editor)

    with pytest.raises(SuggestionError, match="changed since this suggestion was made"):
        apply_suggestion(suggestion, editor)

    assert the_case().document == moved_on.document
    suggestion.refresh_from_db()
    assert suggestion.is_open


def test_a_suggestion_needs_the_version_the_suggester_saw(workspace: Workspace) -> None:
    reviewer = factories.member(workspace, "reviewer")
    case = the_case()
    with pytest.raises(SuggestionError, match="after you opened it"):
        suggest(case, reviewer, edited(case.document, "Refund?"), case.version - 1)


def test_a_suggestion_that_changes_nothing_is_refused(workspace: Workspace) -> None:
    reviewer = factories.member(workspace, "reviewer")
    case = the_case()
    with pytest.raises(SuggestionError, match="changes nothing"):
        suggest(case, reviewer, copy.deepcopy(case.document), case.version)


def test_a_suggestion_that_is_not_a_valid_case_is_refused(workspace: Workspace) -> None:
    reviewer = factories.member(workspace, "reviewer")
    case = the_case()
    broken = {key: value for key, value in case.document.items() if key != "id"}
    with pytest.raises(EvalFileError):
        suggest(case, reviewer, broken, case.version)
    assert not Suggestion.objects.exists()


def test_a_suggestion_is_applied_once(workspace: Workspace) -> None:
    reviewer = factories.member(workspace, "reviewer")
    editor = factories.member(workspace, "editor")
    case = the_case()
    suggestion = suggest(case, reviewer, edited(case.document, "Refund?"), case.version)
    apply_suggestion(suggestion, editor)
    with pytest.raises(SuggestionError, match="already applied"):
        apply_suggestion(suggestion, editor)


def test_dismissing_needs_a_reply_and_leaves_the_case_alone(workspace: Workspace) -> None:
    reviewer = factories.member(workspace, "reviewer")
    editor = factories.member(workspace, "editor")
    case = the_case()
    suggestion = suggest(case, reviewer, edited(case.document, "Refund?"), case.version)
    with pytest.raises(SuggestionError, match="reply is empty"):
        dismiss_suggestion(suggestion, editor, "  ")

    dismiss_suggestion(suggestion, editor, "The question is meant to be vague.")

    assert suggestion.state == Suggestion.State.DISMISSED
    assert suggestion.reply == "The question is meant to be vague."
    assert the_case().document == case.document
    told = Notification.objects.filter(recipient=reviewer).values_list("text", flat=True)
    assert list(told) == [
        f"{editor.username} dismissed your suggestion on refund: {suggestion.reply}"
    ]


def test_a_new_suggestion_tells_the_last_editor_and_the_members_it_mentions(
    workspace: Workspace,
) -> None:
    author = factories.member(workspace, "editor", "ed")
    reviewer = factories.member(workspace, "reviewer", "rita")
    named = factories.member(workspace, "reviewer", "sam")
    stranger = factories.user("mallory", None)
    case = save_case(the_case(), edited(the_case().document, "Refund?"), 1, author)

    suggest(case, reviewer, edited(case.document, "Refund, please?"), case.version, "@sam @mallory")

    kinds = dict(Notification.objects.values_list("recipient__username", "kind"))
    assert kinds == {"ed": Notification.Kind.SUGGESTION, "sam": Notification.Kind.MENTION}
    assert not Notification.objects.filter(recipient__in=[stranger, reviewer]).exists()
    assert named.notifications.get().link.endswith(f"#suggestion-{Suggestion.objects.get().pk}")


# The editor's suggest mode and the suggestion page.


def suggest_through_the_editor(client: Client, case: Case, text: str, note: str = "") -> Any:
    page = client.get(editor_url(case, "?suggest=1"))
    assert page.status_code == 200
    fields = form_fields(page.content.decode(), "case-form")
    assert fields["mode"] == "suggest"
    fields.update({"input-1-block-0-value": text, "action": "suggest", "suggestion_note": note})
    return client.post(editor_url(case), fields)


def test_a_reviewer_suggests_through_the_editor_in_suggest_mode(workspace: Workspace) -> None:
    reviewer = factories.member(workspace, "reviewer")
    case = the_case()

    response = suggest_through_the_editor(logged_in(reviewer), case, "Refund?", "Shorter.")

    suggestion = Suggestion.objects.get()
    assert response.status_code == 302
    assert response["Location"] == suggestion_url(suggestion)
    assert suggestion.document == edited(case.document, "Refund?")
    assert (suggestion.author, suggestion.note) == (reviewer, "Shorter.")
    assert the_case().document == case.document  # nothing saved to the case


def test_a_reviewer_cannot_save_through_suggest_mode(workspace: Workspace) -> None:
    reviewer = factories.member(workspace, "reviewer")
    case = the_case()
    client = logged_in(reviewer)
    fields = form_fields(client.get(editor_url(case, "?suggest=1")).content.decode(), "case-form")
    fields.update({"input-1-block-0-value": "Refund?", "action": "save"})

    assert client.post(editor_url(case), fields).status_code == 403
    assert the_case().document == case.document


def test_a_viewer_cannot_suggest(workspace: Workspace) -> None:
    viewer = factories.member(workspace, "viewer")
    case = the_case()
    client = logged_in(viewer)
    page = client.get(editor_url(case, "?suggest=1")).content.decode()
    assert 'name="mode"' not in page  # the editor stays read-only
    fields = form_fields(page, "case-form")
    fields.update({"mode": "suggest", "input-1-block-0-value": "Refund?", "action": "suggest"})

    assert client.post(editor_url(case), fields).status_code == 403
    assert not Suggestion.objects.exists()


@pytest.mark.parametrize(("role", "status"), [("reviewer", 403), ("viewer", 403), ("editor", 302)])
def test_only_editors_apply_a_suggestion(workspace: Workspace, role: str, status: int) -> None:
    suggester = factories.member(workspace, "reviewer", "rita")
    case = the_case()
    suggestion = suggest(case, suggester, edited(case.document, "Refund?"), case.version)
    client = logged_in(factories.member(workspace, role))

    response = client.post(suggestion_url(suggestion), {"step": "apply"})

    assert response.status_code == status
    suggestion.refresh_from_db()
    assert suggestion.is_open == (status == 403)


def test_the_suggestion_page_shows_the_change_and_the_formatted_question(
    workspace: Workspace,
) -> None:
    reviewer = factories.member(workspace, "reviewer")
    case = the_case()
    suggestion = suggest(case, reviewer, edited(case.document, "Refund for order 42?"), 1)

    page = logged_in(reviewer).get(suggestion_url(suggestion)).content.decode()

    # The formatted question (then the YAML), line by line: as it was beside as suggested.
    changed_line = (
        '<tr class="replace"><td><pre>\nWhere is my refund?</pre></td>'
        "<td><pre>\nRefund for order 42?"
    )
    assert changed_line in page
    assert "Formatted question" in page
    assert "apply-suggestion" not in page  # a reviewer cannot apply
    assert "The case's editors apply or dismiss it." in page


def test_a_stale_suggestion_shows_three_versions_and_cannot_be_applied(
    workspace: Workspace,
) -> None:
    reviewer = factories.member(workspace, "reviewer")
    editor = factories.member(workspace, "editor")
    case = the_case()
    suggestion = suggest(case, reviewer, edited(case.document, "Refund for order 42?"), 1)
    save_case(case, edited(case.document, "Where's my money?"), case.version, editor)
    client = logged_in(editor)

    page = client.get(suggestion_url(suggestion)).content.decode()
    assert 'id="suggestion-stale"' in page
    assert "apply-suggestion" not in page
    for version in ("Where is my refund?", "Refund for order 42?", "Where&#x27;s my money?"):
        assert version in page

    refused = client.post(suggestion_url(suggestion), {"step": "apply"})
    assert refused.status_code == 422
    assert "cannot be applied as is" in refused.content.decode()
    assert the_case().document == edited(case.document, "Where's my money?")


def test_an_editor_applies_a_suggestion_from_its_page(workspace: Workspace) -> None:
    reviewer = factories.member(workspace, "reviewer", "rita")
    editor = factories.member(workspace, "editor")
    case = the_case()
    suggestion = suggest(case, reviewer, edited(case.document, "Refund?"), case.version)
    client = logged_in(editor)

    response = client.post(suggestion_url(suggestion), {"step": "apply"})

    assert response.status_code == 302
    assert the_case().document == edited(case.document, "Refund?")
    history = client.get(
        reverse("case_history", args=[workspace.slug, case.suite_id, case.pk])
    ).content.decode()
    assert "suggested by rita" in history


def test_the_editor_lists_the_open_suggestions(workspace: Workspace) -> None:
    reviewer = factories.member(workspace, "reviewer", "rita")
    editor = factories.member(workspace, "editor")
    case = the_case()
    suggestion = suggest(case, reviewer, edited(case.document, "Refund?"), case.version, "Short")

    page = logged_in(editor).get(editor_url(case)).content.decode()

    assert f'href="{suggestion_url(suggestion)}"' in page
    assert "Suggestion by rita" in page


@pytest.mark.parametrize("page", ["editor", "suggestion"])
def test_pages_read_suggestions_in_a_constant_number_of_queries(
    workspace: Workspace, page: str
) -> None:
    editor = factories.member(workspace, "editor")
    case = the_case()
    client = logged_in(editor)

    def queries_with(count: int) -> int:
        for number in range(Suggestion.objects.count(), count):
            author = factories.member(workspace, "reviewer", f"reviewer-{number}")
            suggest(case, author, edited(case.document, f"Refund {number}?"), case.version)
        first = Suggestion.objects.order_by("pk").first()
        assert first is not None
        url = editor_url(case) if page == "editor" else suggestion_url(first)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    assert queries_with(1) == queries_with(6)

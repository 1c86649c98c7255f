"""Suggested edits through the API: the same rights and rules as the pages (whoever may
comment suggests, editors apply or dismiss, a stale suggestion is refused)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from evals_app.models import Case, Suggestion
from evals_app.services.cases.editing import save_case
from evals_app.services.review.suggestions import suggest
from tests import factories
from tests.api.api_calls import Team, make_team

pytestmark = pytest.mark.django_db
SUGGESTIONS = "/workspaces/team-evals/case/suggestions"


@pytest.fixture
def team() -> Team:
    return make_team()


def reworded(case: Case, text: str) -> dict[str, Any]:
    document = copy.deepcopy(case.document)
    document["input_messages"][1]["content"] = text
    return document


def propose(team: Team, role: str, text: str, version: int = 1, note: str = "") -> Any:
    body = {"version": version, "document": reworded(team.first, text), "note": note}
    return team.as_role(role).post(SUGGESTIONS, body, **team.case_query())


def test_a_reviewer_suggests_and_everyone_reads_it(team: Team) -> None:
    made = propose(team, "reviewer", "What is 3+3?", note="Less common.")
    assert made.status_code == 201

    listed = team.as_role("viewer").get(SUGGESTIONS, **team.case_query())

    assert listed.status_code == 200
    [suggestion] = listed.json()["items"]
    assert suggestion == {**made.json(), "created_at": suggestion["created_at"]}
    assert (suggestion["author"], suggestion["state"], suggestion["stale"]) == (
        "reviewer-team-evals",
        "open",
        False,
    )
    assert suggestion["document"] == reworded(team.first, "What is 3+3?")
    assert suggestion["base"] == team.first.document


def test_a_viewer_cannot_suggest(team: Team) -> None:
    assert propose(team, "viewer", "What is 3+3?").status_code == 403
    assert not Suggestion.objects.exists()


def test_a_suggestion_on_an_old_version_is_a_conflict(team: Team) -> None:
    response = propose(team, "reviewer", "What is 3+3?", version=7)
    assert response.status_code == 409
    assert "after you opened it" in response.json()["message"]


def test_an_invalid_document_says_where(team: Team) -> None:
    body = {"version": 1, "document": {"outcome": "x", "input_messages": []}}
    response = team.as_role("reviewer").post(SUGGESTIONS, body, **team.case_query())
    assert response.status_code == 422
    assert response.json()["file"] == "evals/review.yaml"


@pytest.mark.parametrize(("role", "status"), [("reviewer", 403), ("viewer", 403), ("editor", 200)])
def test_only_editors_apply(team: Team, role: str, status: int) -> None:
    pk = propose(team, "reviewer", "What is 3+3?").json()["pk"]

    response = team.as_role(role).post(f"/workspaces/team-evals/suggestions/{pk}/apply", {})

    assert response.status_code == status
    applied = Case.objects.get(pk=team.first.pk).document == reworded(team.first, "What is 3+3?")
    assert applied == (status == 200)
    if status == 200:
        assert response.json() == {"version": 2, "id": "first"}
        listed = team.as_role("viewer").get(SUGGESTIONS, **team.case_query()).json()["items"]
        assert (listed[0]["state"], listed[0]["revision"]) == ("applied", 2)


def test_a_stale_suggestion_is_refused(team: Team) -> None:
    pk = propose(team, "reviewer", "What is 3+3?").json()["pk"]
    save_case(team.first, reworded(team.first, "What is 4+4?"), 1)
    assert team.as_role("viewer").get(SUGGESTIONS, **team.case_query()).json()["items"][0]["stale"]

    response = team.as_role("editor").post(f"/workspaces/team-evals/suggestions/{pk}/apply", {})

    assert response.status_code == 409
    assert "cannot be applied as is" in response.json()["message"]
    assert Case.objects.get(pk=team.first.pk).document == reworded(team.first, "What is 4+4?")


def test_an_editor_dismisses_with_a_reply(team: Team) -> None:
    pk = propose(team, "reviewer", "What is 3+3?").json()["pk"]
    url = f"/workspaces/team-evals/suggestions/{pk}/dismiss"
    editor = team.as_role("editor")

    assert editor.post(url, {"reply": " "}).status_code == 422
    assert team.as_role("reviewer").post(url, {"reply": "No."}).status_code == 403
    response = editor.post(url, {"reply": "2+2 is the point."})

    assert response.status_code == 200
    assert (response.json()["state"], response.json()["reply"]) == (
        "dismissed",
        "2+2 is the point.",
    )
    assert editor.post(url, {"reply": "Again."}).status_code == 409


def test_a_suggestion_of_another_workspace_is_not_found(team: Team) -> None:
    elsewhere = factories.workspace("Elsewhere")
    case = factories.case(factories.suite(elsewhere), "theirs", ("user", "Hello"))
    author = factories.member(elsewhere, "reviewer")
    theirs = suggest(case, author, {**case.document, "outcome": "Greets back."}, case.version)

    response = team.as_role("owner").post(
        f"/workspaces/team-evals/suggestions/{theirs.pk}/apply", {}
    )

    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.is_open

"""Cases through the API: list, read, replace (with the version read), and every refusal."""

from __future__ import annotations

from typing import Any

import pytest

from evals_app.models import Case, Revision
from tests.api.api_calls import ApiClient, Team, make_team
from tests.factories import admin, api_token, case, member, suite, user, workspace

pytestmark = pytest.mark.django_db


@pytest.fixture
def team() -> Team:
    return make_team()


def edited(team: Team, **changes: Any) -> dict[str, Any]:
    """The first case's document with `changes`, as a PUT body at its current version."""
    return {"version": team.first.version, "document": {**team.first.document, **changes}}


# Listing


def test_lists_every_case_of_the_workspace_by_suite_then_position(team: Team) -> None:
    other = suite(team.workspace, "evals/another.yaml")
    case(other, "third")

    response = team.as_role("viewer").get("/workspaces/team-evals/cases")

    assert response.status_code == 200
    assert response.json() == {
        "items": [
            {"suite": "evals/another.yaml", "id": "third", "status": "draft", "version": 1},
            {"suite": "evals/review.yaml", "id": "first", "status": "draft", "version": 1},
            {"suite": "evals/review.yaml", "id": "second", "status": "in_review", "version": 1},
        ],
        "total": 3,
        "next": None,
    }


@pytest.mark.parametrize(
    ("query", "ids"),
    [
        ({"suite": "evals/review.yaml"}, ["first", "second"]),
        ({"suite": "evals/another.yaml"}, ["third"]),
        ({"status": "in_review"}, ["second"]),
        ({"status": "approved"}, []),
        ({"suite": "evals/review.yaml", "status": "draft"}, ["first"]),
    ],
)
def test_filters_the_cases_by_suite_and_status(
    team: Team, query: dict[str, str], ids: list[str]
) -> None:
    case(suite(team.workspace, "evals/another.yaml"), "third")

    response = team.as_role("viewer").get("/workspaces/team-evals/cases", **query)

    assert [item["id"] for item in response.json()["items"]] == ids
    assert response.json()["total"] == len(ids)


def test_an_unknown_suite_is_not_found(team: Team) -> None:
    response = team.as_role("viewer").get("/workspaces/team-evals/cases", suite="nope.yaml")

    assert response.status_code == 404
    assert response.json() == {"message": "No suite at 'nope.yaml' in Team evals."}


def test_an_unknown_status_is_bad_input(team: Team) -> None:
    response = team.as_role("viewer").get("/workspaces/team-evals/cases", status="finished")

    assert response.status_code == 400
    assert response.json()["message"].startswith("The request is not valid: query.status:")


# Reading


def test_reads_a_case_with_its_document_in_the_files_key_order(team: Team) -> None:
    response = team.as_role("viewer").get("/workspaces/team-evals/case", **team.case_query())

    assert response.status_code == 200
    body = response.json()
    assert body == {
        "suite": "evals/review.yaml",
        "id": "first",
        "status": "draft",
        "version": 1,
        "document": team.first.document,
    }
    assert list(body["document"]) == ["id", "outcome", "input_messages"]


@pytest.mark.parametrize(
    "query",
    [
        {"suite": "evals/review.yaml", "id": "nope"},
        {"suite": "evals/nope.yaml", "id": "first"},
    ],
)
def test_an_unknown_case_is_not_found(team: Team, query: dict[str, str]) -> None:
    response = team.as_role("viewer").get("/workspaces/team-evals/case", **query)

    assert response.status_code == 404
    assert "message" in response.json()


def test_reading_a_case_needs_its_suite_and_id(team: Team) -> None:
    response = team.as_role("viewer").get("/workspaces/team-evals/case", suite="evals/review.yaml")

    assert response.status_code == 400
    assert "query.id" in response.json()["message"]


# Replacing


def test_replaces_the_case_and_answers_its_new_version(team: Team) -> None:
    body = edited(team, outcome="Says 4.")

    response = team.as_role("editor").put("/workspaces/team-evals/case", body, **team.case_query())

    assert response.status_code == 200
    assert response.json() == {"version": 2, "id": "first"}
    stored = Case.objects.get(pk=team.first.pk)
    assert stored.document == body["document"]
    assert list(stored.document) == list(body["document"])
    assert Revision.objects.filter(case=stored).last().author.username == "editor-team-evals"


def test_putting_back_what_was_read_changes_nothing(team: Team) -> None:
    api = team.as_role("editor")
    read = api.get("/workspaces/team-evals/case", **team.case_query()).json()

    response = api.put(
        "/workspaces/team-evals/case",
        {"version": read["version"], "document": read["document"]},
        **team.case_query(),
    )

    assert response.json() == {"version": 1, "id": "first"}
    assert not Revision.objects.filter(case=team.first).exists()


def test_a_document_with_a_new_id_renames_the_case(team: Team) -> None:
    response = team.as_role("editor").put(
        "/workspaces/team-evals/case", edited(team, id="renamed"), **team.case_query()
    )

    assert response.json() == {"version": 2, "id": "renamed"}
    assert Case.objects.get(pk=team.first.pk).case_id == "renamed"


def test_a_save_based_on_an_older_version_is_a_conflict_with_what_differs(team: Team) -> None:
    api = team.as_role("editor")
    api.put("/workspaces/team-evals/case", edited(team, outcome="Theirs."), **team.case_query())

    response = api.put(
        "/workspaces/team-evals/case", edited(team, outcome="Mine."), **team.case_query()
    )

    assert response.status_code == 409
    body = response.json()
    assert body["version"] == 2
    assert body["message"] == (
        "first was saved by someone else: it is at version 2, not 1. Nothing was written."
    )
    assert body["differences"] == [{"label": "outcome", "theirs": "Theirs.", "yours": "Mine."}]
    assert Case.objects.get(pk=team.first.pk).document["outcome"] == "Theirs."


def test_a_conflicts_differences_are_named_in_the_suites_spelling(team: Team) -> None:
    today = suite(team.workspace, "evals/today.eval.yaml", cases_key="tests", profile="agentv-2026")
    stored = {"id": "t1", "criteria": "Old.", "input": "Hi"}
    Case.objects.create(suite=today, position=0, case_id="t1", document=stored)
    api = team.as_role("editor")
    query = {"suite": today.path, "id": "t1"}
    theirs = {**stored, "criteria": "Theirs.", "input": "Hello"}
    api.put("/workspaces/team-evals/case", {"version": 1, "document": theirs}, **query)

    mine = {**stored, "criteria": "Mine."}
    response = api.put("/workspaces/team-evals/case", {"version": 1, "document": mine}, **query)

    assert response.status_code == 409
    labels = [difference["label"] for difference in response.json()["differences"]]
    assert labels == ["criteria", "input 1"]


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        (
            {"input_messages": [{"role": "customer", "content": "Hi"}]},
            "input_messages[0].role",
            "unknown role 'customer'",
        ),
        ({"id": "second"}, "id", "another case of this suite has this id"),
    ],
)
def test_an_invalid_document_is_refused_saying_where(
    team: Team, changes: dict[str, Any], field: str, words: str
) -> None:
    response = team.as_role("editor").put(
        "/workspaces/team-evals/case", edited(team, **changes), **team.case_query()
    )

    assert response.status_code == 422
    body = response.json()
    assert body["file"] == "evals/review.yaml"
    assert body["field"] == field
    assert words in body["message"]
    assert body["message"].startswith("evals/review.yaml: case ")
    assert Case.objects.get(pk=team.first.pk).version == 1


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("{not json", "The request body is not usable JSON"),
        ("[1, 2]", "the request body must be a JSON object"),
        ("[" * 5000 + "]" * 5000, "nested deeper than the limit of 64 levels"),
        ('{"version": 1}', "body.update.document: Field required"),
        ('{"version": "one", "document": {}}', "body.update.version"),
        ('{"version": 1, "document": ["id"]}', "body.update.document"),
        (b"\xff\xfe", "The request body is not usable JSON"),
    ],
)
def test_a_body_that_is_not_a_case_update_is_bad_input(
    team: Team, body: str | bytes, words: str
) -> None:
    response = team.as_role("editor").put("/workspaces/team-evals/case", body, **team.case_query())

    assert response.status_code == 400
    assert words in response.json()["message"]


def test_a_body_nested_deeper_than_a_case_may_be_is_refused_before_parsing(team: Team) -> None:
    deep: Any = "leaf"
    for _ in range(70):
        deep = {"nested": deep}

    response = team.as_role("editor").put(
        "/workspaces/team-evals/case", edited(team, metadata=deep), **team.case_query()
    )

    assert response.status_code == 400
    assert "nested deeper than the limit" in response.json()["message"]


def test_a_body_larger_than_the_server_accepts_is_refused(team: Team, settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000

    response = team.as_role("editor").put(
        "/workspaces/team-evals/case", edited(team, outcome="x" * 2000), **team.case_query()
    )

    assert response.status_code == 413
    assert response.json() == {"message": "The request body is larger than the server accepts."}


# Keys that are not strings


@pytest.fixture
def typed_keys_case(team: Team) -> Case:
    scores = {0: "wrong", 1.5: "half", True: "flag", None: "none", "2": "a string"}
    return case(team.suite, "scored", score_ranges=scores)


def test_keys_that_are_not_strings_come_as_their_json_text(
    team: Team, typed_keys_case: Case
) -> None:
    response = team.as_role("viewer").get(
        "/workspaces/team-evals/case", **team.case_query(typed_keys_case)
    )

    assert response.json()["document"]["score_ranges"] == {
        "0": "wrong",
        "1.5": "half",
        "true": "flag",
        "null": "none",
        "2": "a string",
    }


def test_keys_sent_back_get_the_type_they_have_in_the_stored_case(
    team: Team, typed_keys_case: Case
) -> None:
    api = team.as_role("editor")
    query = team.case_query(typed_keys_case)
    read = api.get("/workspaces/team-evals/case", **query).json()
    read["document"]["outcome"] = "Scores the answer."
    read["document"]["score_ranges"]["3"] = "new"

    response = api.put(
        "/workspaces/team-evals/case",
        {"version": read["version"], "document": read["document"]},
        **query,
    )

    assert response.status_code == 200
    stored = Case.objects.get(pk=typed_keys_case.pk).document["score_ranges"]
    assert list(stored) == [0, 1.5, True, None, "2", "3"]
    assert [type(key) for key in stored] == [int, float, bool, type(None), str, str]


def test_a_mapping_whose_keys_would_be_one_json_key_cannot_be_read(team: Team) -> None:
    clash = case(team.suite, "clash", score_ranges={0: "number", "0": "string"})

    response = team.as_role("viewer").get("/workspaces/team-evals/case", **team.case_query(clash))

    assert response.status_code == 422
    assert response.json()["message"].startswith("score_ranges: two keys of one mapping")


# Who may


def test_viewers_and_reviewers_may_not_replace_a_case(team: Team) -> None:
    for role in ("viewer", "reviewer"):
        response = team.as_role(role).put(
            "/workspaces/team-evals/case", edited(team, outcome="x"), **team.case_query()
        )

        assert response.status_code == 403
        assert response.json() == {"message": "Your role in Team evals does not allow this."}


def test_a_workspace_i_am_not_in_is_not_found(team: Team) -> None:
    outsider = ApiClient(api_token(member(workspace("Elsewhere"), "owner")))

    for response in (
        outsider.get("/workspaces/team-evals/cases"),
        outsider.get("/workspaces/team-evals/case", **team.case_query()),
        outsider.put("/workspaces/team-evals/case", edited(team), **team.case_query()),
        outsider.get("/workspaces/no-such-workspace/cases"),
    ):
        assert response.status_code == 404
        assert response.json() == {"message": "No such workspace."}


def test_a_superuser_may_replace_any_case(team: Team) -> None:
    response = ApiClient(api_token(admin())).put(
        "/workspaces/team-evals/case", edited(team, outcome="x"), **team.case_query()
    )

    assert response.status_code == 200


def test_an_account_in_no_workspace_finds_nothing(team: Team) -> None:
    response = ApiClient(api_token(user("loner", password=None))).get(
        "/workspaces/team-evals/cases"
    )

    assert response.status_code == 404

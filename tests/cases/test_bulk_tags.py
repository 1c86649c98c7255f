"""Adding and removing a tag on the cases selected on the suite page: each change saved as an
edit (a new version and revision), cases that already have (or lack) the tag left alone."""

from __future__ import annotations

import pytest
from django.test import Client

from evals_app.models import Case, ReviewStatus, Workspace
from evals_app.services.cases.tags import TagError, checked_tag, tags_of, with_tag, without_tag
from tests import factories
from tests.cases.test_bulk_case_actions import act, reported, signed_in_as, suite_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def team(db: None) -> Workspace:
    """A workspace with one suite, review.yaml, of cases a to e."""
    workspace = factories.workspace("Bulk")
    review = factories.suite(workspace, "evals/review.yaml")
    for case_id in "abcde":
        factories.case(review, case_id)
    return workspace


def tags(workspace: Workspace) -> dict[str, list[str]]:
    return {case.case_id: tags_of(case) for case in suite_of(workspace).cases.all()}


@pytest.mark.parametrize(
    ("document", "tag", "added"),
    [
        ({"id": "a"}, "smoke", {"id": "a", "tags": ["smoke"]}),
        ({"id": "a", "tags": ["x"]}, "smoke", {"id": "a", "tags": ["x", "smoke"]}),
        ({"id": "a", "tags": "x"}, "smoke", {"id": "a", "tags": ["x", "smoke"]}),
        ({"id": "a", "tags": ["smoke"]}, "smoke", None),
    ],
)
def test_adding_a_tag_appends_it_once(document: dict, tag: str, added: dict | None) -> None:
    assert with_tag(document, tag) == added


@pytest.mark.parametrize(
    ("document", "removed"),
    [
        ({"id": "a", "tags": ["x", "smoke"]}, {"id": "a", "tags": ["x"]}),
        ({"id": "a", "tags": ["smoke"]}, {"id": "a"}),
        ({"id": "a", "tags": "smoke"}, {"id": "a"}),
        ({"id": "a", "tags": ["x"]}, None),
    ],
)
def test_removing_a_tag_drops_the_key_once_none_is_left(
    document: dict, removed: dict | None
) -> None:
    assert without_tag(document, "smoke") == removed


@pytest.mark.parametrize(
    ("text", "words"), [("  ", "Type the tag"), ("a\nb", "one line"), ("x" * 201, "at most")]
)
def test_a_tag_that_cannot_be_one_is_refused(text: str, words: str) -> None:
    with pytest.raises(TagError, match=words):
        checked_tag(text)


def test_an_editor_tags_the_selected_cases_as_saved_edits(team: Workspace) -> None:
    review = suite_of(team)
    client, _ = signed_in_as(team, "editor")

    response = act(client, review, "add-tag", "a", "b", bulk_tag=" smoke ")

    assert tags(team) == {"a": ["smoke"], "b": ["smoke"], "c": [], "d": [], "e": []}
    assert reported(response) == ["Tagged “smoke”: 2 cases (a, b)."]
    tagged = review.cases.get(case_id="a")
    assert tagged.version == 2
    assert tagged.revisions.order_by("number").last().summary == "tag smoke added"


def test_removing_a_tag_leaves_the_cases_without_it_alone(team: Workspace) -> None:
    review = suite_of(team)
    client, _ = signed_in_as(team, "editor")
    act(client, review, "add-tag", "a", bulk_tag="smoke")

    response = act(client, review, "remove-tag", "a", "b", bulk_tag="smoke")

    assert tags(team)["a"] == []
    assert reported(response)[-1] == "Untagged “smoke”: 1 case (a)."
    assert review.cases.get(case_id="b").version == 1


def test_tagging_dismisses_an_approval_as_any_edit_does(team: Workspace) -> None:
    review = suite_of(team)
    review.cases.filter(case_id="a").update(status=ReviewStatus.APPROVED)
    client, _ = signed_in_as(team, "editor")

    act(client, review, "add-tag", "a", bulk_tag="smoke")

    assert Case.objects.get(suite=review, case_id="a").status != ReviewStatus.APPROVED


def test_an_empty_tag_is_refused_with_a_message(team: Workspace) -> None:
    review = suite_of(team)
    client, _ = signed_in_as(team, "editor")

    response = act(client, review, "add-tag", "a", bulk_tag="")

    assert reported(response) == ["Type the tag to add or remove."]
    assert tags(team)["a"] == []


@pytest.mark.parametrize("role", ["reviewer", "viewer"])
def test_only_editors_tag_cases(team: Workspace, role: str) -> None:
    client: Client
    client, _ = signed_in_as(team, role)

    response = act(client, suite_of(team), "add-tag", "a", bulk_tag="smoke")

    assert response.status_code == 403
    assert tags(team)["a"] == []

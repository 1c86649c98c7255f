"""Acting on the cases selected on the suite page: submit for review, approve, move to another
suite, delete; each one transaction, each refusal reported with its case and reason."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, Membership, ReviewStatus, Suite, Workspace
from evals_app.services.cases.positions import GAP
from evals_app.services.cases.summaries import is_current
from evals_app.services.review.revisions import record_revision
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def team(db: None) -> Workspace:
    """A workspace with two suites: review.yaml (a, b, c, d, e) and other.yaml (c, x)."""
    workspace = factories.workspace("Bulk")
    review = factories.suite(workspace, "evals/review.yaml")
    for case_id in "abcde":
        factories.case(review, case_id)
    other = factories.suite(workspace, "evals/other.yaml")
    for case_id in "cx":
        factories.case(other, case_id)
    return workspace


def suite_of(workspace: Workspace, path: str = "evals/review.yaml") -> Suite:
    return workspace.suites.get(path=path)


def signed_in_as(workspace: Workspace, role: str) -> tuple[Client, User]:
    client = Client()
    account = factories.member(workspace, role)
    client.force_login(account)
    return client, account


def ids(suite: Suite) -> list[str]:
    return list(suite.cases.order_by("position").values_list("case_id", flat=True))


def positions(suite: Suite) -> list[int]:
    return list(suite.cases.order_by("position").values_list("position", flat=True))


def pks(suite: Suite, *case_ids: str) -> list[str]:
    return [str(suite.cases.get(case_id=case_id).pk) for case_id in case_ids]


def statuses(suite: Suite) -> dict[str, str]:
    return dict(suite.cases.values_list("case_id", "status"))


def act(client: Client, suite: Suite, action: str, *case_ids: str, **fields: Any) -> HttpResponse:
    """Post the suite page's bulk form: `action` on the cases `case_ids`."""
    url = reverse("case_bulk", args=[suite.workspace.slug, suite.pk])
    response: HttpResponse = client.post(
        url, {"action": action, "cases": pks(suite, *case_ids), **fields}
    )
    return response


def reported(response: HttpResponse) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def test_an_editor_submits_the_selected_cases_and_hears_which_could_not_be(
    team: Workspace,
) -> None:
    review = suite_of(team)
    review.cases.filter(case_id="c").update(status=ReviewStatus.APPROVED)
    client, _ = signed_in_as(team, "editor")

    response = act(client, review, "submit", "a", "b", "c")

    assert response.status_code == 302
    assert statuses(review) == {
        "a": "in_review",
        "b": "in_review",
        "c": "approved",
        "d": "draft",
        "e": "draft",
    }
    assert reported(response) == [
        "Submitted for review: 2 cases (a, b).",
        "Not done: c is approved; it cannot be submitted for review.",
    ]


def test_a_reviewer_approves_cases_in_review_except_those_they_changed(team: Workspace) -> None:
    review = suite_of(team)
    review.cases.filter(case_id__in="abc").update(status=ReviewStatus.IN_REVIEW)
    client, rita = signed_in_as(team, "reviewer")
    changed = review.cases.get(case_id="b")
    record_revision(changed, rita, "edited", changed.document)

    response = act(client, review, "approve", "a", "b", "c", "d")

    assert statuses(review) == {
        "a": "approved",
        "b": "in_review",
        "c": "approved",
        "d": "draft",
        "e": "draft",
    }
    assert reported(response) == [
        "Approved: 2 cases (a, c).",
        "Not done: b: You changed this case since its last approval: someone else approves it.",
        "Not done: d is draft; it cannot be approved.",
    ]
    assert review.cases.get(case_id="a").review_events.get().actor == rita


def test_moving_appends_the_cases_to_the_other_suite_and_leaves_the_others_in_place(
    team: Workspace,
) -> None:
    review, other = suite_of(team), suite_of(team, "evals/other.yaml")
    client, _ = signed_in_as(team, "editor")

    response = act(client, review, "move", "b", "d", target=str(other.pk))

    assert ids(review) == ["a", "c", "e"]
    assert positions(review) == [0, 2, 4]  # gaps are no harm (services/cases/positions.py)
    assert ids(other) == ["c", "x", "b", "d"]
    assert positions(other) == [0, 1, 1 + GAP, 1 + 2 * GAP]
    # Its files resolve from there now: the worker (here at once) recomputed its summary.
    moved = other.cases.get(case_id="b")
    assert is_current(moved, other)
    assert reported(response) == ["Moved to evals/other.yaml: 2 cases (b, d)."]


def test_moving_refuses_each_case_whose_id_the_other_suite_has(team: Workspace) -> None:
    review, other = suite_of(team), suite_of(team, "evals/other.yaml")
    client, _ = signed_in_as(team, "editor")

    response = act(client, review, "move", "a", "c", target=str(other.pk))

    assert ids(review) == ["b", "c", "d", "e"]
    assert positions(review) == [1, 2, 3, 4]
    assert ids(other) == ["c", "x", "a"]
    assert reported(response) == [
        "Moved to evals/other.yaml: 1 case (a).",
        "Not done: c: evals/other.yaml already has a case with this id.",
    ]


@pytest.mark.parametrize("target", ["", "abc", "same", "elsewhere"])
def test_moving_needs_another_suite_of_the_same_workspace(team: Workspace, target: str) -> None:
    review = suite_of(team)
    elsewhere = factories.suite(factories.workspace("Elsewhere"), "evals/far.yaml")
    choice = {"same": str(review.pk), "elsewhere": str(elsewhere.pk)}.get(target, target)
    client, _ = signed_in_as(team, "editor")

    response = act(client, review, "move", "a", target=choice)

    assert ids(review) == ["a", "b", "c", "d", "e"]
    assert not elsewhere.cases.exists()
    assert reported(response) == ["Choose the suite to move the cases to."]


def test_deleting_asks_first_and_changes_nothing_until_confirmed(team: Workspace) -> None:
    review = suite_of(team)
    client, _ = signed_in_as(team, "editor")

    response = act(client, review, "delete", "b", "d")

    html = response.content.decode()
    assert response.status_code == 200
    assert ids(review) == ["a", "b", "c", "d", "e"]
    assert "Delete 2 cases?" in html
    confirm = re.search(r'<section class="card confirm-bulk".*?</section>', html, re.S)
    assert confirm is not None
    assert re.findall(r"<li>(\w)</li>", confirm[0]) == ["b", "d"]
    assert 'name="confirmed" value="yes"' in confirm[0]
    assert "Yes, delete 2 cases" in confirm[0]


def test_confirmed_deletion_deletes_the_cases_and_moves_no_other(team: Workspace) -> None:
    review = suite_of(team)
    client, _ = signed_in_as(team, "editor")

    response = act(client, review, "delete", "b", "d", confirmed="yes")

    assert response.status_code == 302
    assert ids(review) == ["a", "c", "e"]
    assert positions(review) == [0, 2, 4]
    assert reported(response) == ["Deleted: 2 cases (b, d)."]


def test_select_all_on_the_page_acts_on_every_case_listed(team: Workspace) -> None:
    review = suite_of(team)
    client, _ = signed_in_as(team, "editor")
    url = reverse("case_bulk", args=[team.slug, review.pk])

    client.post(
        url,
        {
            "action": "submit",
            "all_on_page": "yes",
            "page_cases": pks(review, "a", "b", "c", "d", "e"),
            "cases": pks(review, "a"),
        },
    )

    assert set(statuses(review).values()) == {"in_review"}


def test_cases_of_another_suite_are_never_touched(team: Workspace) -> None:
    review, other = suite_of(team), suite_of(team, "evals/other.yaml")
    client, _ = signed_in_as(team, "editor")
    url = reverse("case_bulk", args=[team.slug, review.pk])

    response = client.post(url, {"action": "delete", "confirmed": "yes", "cases": pks(other, "x")})

    assert ids(other) == ["c", "x"]
    assert reported(response) == ["None of the selected cases is in this suite any more."]


def test_nothing_selected_says_so(team: Workspace) -> None:
    client, _ = signed_in_as(team, "editor")

    response = act(client, suite_of(team), "submit")

    assert reported(response) == ["Select some cases first."]


@pytest.mark.parametrize(
    "fields",
    [
        {"action": "burn", "cases": ["1"]},
        {"action": "submit", "cases": ["one"]},
        {"action": "submit", "cases": ["-1"]},
        {"action": "submit", "cases": [str(n) for n in range(1001)]},
    ],
    ids=["unknown action", "not a number", "negative", "too many"],
)
def test_a_malformed_request_is_answered_400(team: Workspace, fields: dict[str, Any]) -> None:
    client, _ = signed_in_as(team, "owner")
    url = reverse("case_bulk", args=[team.slug, suite_of(team).pk])

    assert client.post(url, fields).status_code == 400


def test_after_an_action_the_page_comes_back_to_the_same_list(team: Workspace) -> None:
    review = suite_of(team)
    client, _ = signed_in_as(team, "editor")

    response = act(client, review, "submit", "a", status="draft", sort="-id", q="", page="1")

    assert parse_qs(urlsplit(response["Location"]).query) == {
        "status": ["draft"],
        "sort": ["-id"],
        "page": ["1"],
    }


def test_htmx_gets_the_table_with_the_report(team: Workspace) -> None:
    review = suite_of(team)
    client, _ = signed_in_as(team, "editor")
    url = reverse("case_bulk", args=[team.slug, review.pk])

    response = client.post(
        url,
        {"action": "submit", "cases": pks(review, "a"), "status": "draft"},
        HTTP_HX_REQUEST="true",
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert "Submitted for review: 1 case (a)." in html
    assert ">a</a>" not in html and ">b</a>" in html  # still the list of drafts


def test_a_refused_case_does_not_undo_the_others(team: Workspace) -> None:
    review = suite_of(team)
    review.cases.filter(case_id="a").update(status=ReviewStatus.APPROVED)
    client, _ = signed_in_as(team, "owner")

    act(client, review, "submit", "a", "b")

    assert statuses(review)["b"] == "in_review"
    assert Case.objects.get(suite=review, case_id="b").review_events.count() == 1


def bulk_buttons(html: str) -> list[str]:
    form = re.search(r'<form [^>]*id="bulk-cases".*?</form>', html, re.S)
    if form is None:
        return []
    return re.findall(r'<button type="submit" name="action" value="(\w+)"', form[0])


@pytest.mark.parametrize(
    ("role", "buttons"),
    [
        ("owner", ["submit", "approve", "move", "delete", "assign", "spread", "unassign"]),
        ("editor", ["submit", "move", "delete"]),
        ("reviewer", ["approve"]),
        ("viewer", []),
    ],
)
def test_each_role_is_offered_the_bulk_actions_it_may_take(
    team: Workspace, role: str, buttons: list[str]
) -> None:
    client, _ = signed_in_as(team, role)

    html = client.get(reverse("suite_detail", args=[team.slug, suite_of(team).pk])).content
    page = html.decode()

    assert bulk_buttons(page) == buttons
    assert ('type="checkbox"' in page) == bool(buttons)


@pytest.mark.parametrize(
    ("role", "action", "allowed"),
    [
        ("reviewer", "approve", True),
        ("reviewer", "submit", False),
        ("reviewer", "delete", False),
        ("reviewer", "move", False),
        ("editor", "approve", False),
        ("viewer", "approve", False),
        ("viewer", "submit", False),
    ],
)
def test_roles_may_take_only_their_bulk_actions(
    team: Workspace, role: str, action: str, allowed: bool
) -> None:
    review, other = suite_of(team), suite_of(team, "evals/other.yaml")
    review.cases.update(status=ReviewStatus.IN_REVIEW)
    client, _ = signed_in_as(team, role)

    response = act(client, review, action, "a", confirmed="yes", target=str(other.pk))

    assert response.status_code == (302 if allowed else 403)
    if not allowed:
        assert ids(review) == ["a", "b", "c", "d", "e"]
        assert statuses(review)["a"] == "in_review"


def test_outsiders_find_no_suite_to_act_on(team: Workspace) -> None:
    client = Client()
    client.force_login(factories.user("olga", password=None))

    assert act(client, suite_of(team), "approve", "a").status_code == 404
    assert not Membership.objects.filter(user__username="olga").exists()

"""Assignments and My queue: owners give cases to reviewers from the suite page; each reviewer
works through their queue in order, with progress, Next and what is new."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from evals_app.models import (
    Case,
    ReviewAssignment,
    ReviewEvent,
    ReviewRules,
    ReviewStatus,
    Suite,
    Workspace,
)
from evals_app.services.cases.editing import save_case
from evals_app.services.review.assignments import (
    QUEUE_PAGE,
    assign_cases,
    my_queue,
    next_in_queue,
)
from evals_app.services.review.workflow import move
from tests import factories

pytestmark = pytest.mark.django_db
Action = ReviewEvent.Action
IDS = ["alpha", "bravo", "charlie", "delta"]


@pytest.fixture
def suite() -> Suite:
    suite = factories.suite(factories.workspace())
    for case_id in IDS:
        factories.case(suite, case_id, status=ReviewStatus.IN_REVIEW)
    return suite


@pytest.fixture
def workspace(suite: Suite) -> Workspace:
    return suite.workspace


def signed_in(account: User) -> Client:
    client = Client()
    client.force_login(account)
    return client


def pks(suite: Suite, *case_ids: str) -> list[int]:
    return [suite.cases.get(case_id=case_id).pk for case_id in case_ids]


def assigned(reviewer: User) -> list[str]:
    rows = ReviewAssignment.objects.filter(reviewer=reviewer).order_by("case__position")
    return list(rows.values_list("case__case_id", flat=True))


def bulk(client: Client, suite: Suite, action: str, cases: list[int], reviewers: list[User]):  # type: ignore[no-untyped-def]
    return client.post(
        reverse("case_bulk", args=[suite.workspace.slug, suite.pk]),
        {"action": action, "cases": cases, "reviewers": [r.pk for r in reviewers]},
        follow=True,
    )


def test_owner_assigns_the_selected_cases_to_each_reviewer(suite: Suite) -> None:
    workspace = suite.workspace
    owner = signed_in(factories.member(workspace, "owner"))
    ann, bob = (factories.member(workspace, "reviewer", name) for name in ("ann", "bob"))

    bulk(owner, suite, "assign", pks(suite, "alpha", "charlie"), [ann, bob])

    assert assigned(ann) == assigned(bob) == ["alpha", "charlie"]


def test_spreading_gives_the_cases_to_the_reviewers_in_turn(suite: Suite) -> None:
    workspace = suite.workspace
    owner = signed_in(factories.member(workspace, "owner"))
    ann, bob = (factories.member(workspace, "reviewer", name) for name in ("ann", "bob"))

    bulk(owner, suite, "spread", pks(suite, *IDS), [ann, bob])

    assert assigned(ann) == ["alpha", "charlie"]
    assert assigned(bob) == ["bravo", "delta"]


def test_unassigning_takes_cases_out_of_a_queue(suite: Suite) -> None:
    owner = factories.member(suite.workspace, "owner")
    ann = factories.member(suite.workspace, "reviewer", "ann")
    assign_cases(suite, pks(suite, *IDS), [ann.pk], owner)

    bulk(signed_in(owner), suite, "unassign", pks(suite, "alpha"), [ann])

    assert assigned(ann) == ["bravo", "charlie", "delta"]


def test_only_members_who_review_can_be_assigned(suite: Suite) -> None:
    owner = signed_in(factories.member(suite.workspace, "owner"))
    editor = factories.member(suite.workspace, "editor")
    outsider = factories.user("outsider", None)

    response = bulk(owner, suite, "assign", pks(suite, "alpha"), [editor, outsider])

    assert "Choose one or more reviewers" in response.content.decode()
    assert not ReviewAssignment.objects.exists()


def test_a_reviewer_cannot_assign_cases(suite: Suite) -> None:
    ann = factories.member(suite.workspace, "reviewer", "ann")

    response = signed_in(ann).post(
        reverse("case_bulk", args=[suite.workspace.slug, suite.pk]),
        {"action": "assign", "cases": pks(suite, "alpha"), "reviewers": [ann.pk]},
    )

    assert response.status_code == 403


def test_my_queue_shows_progress_and_next_in_order(suite: Suite) -> None:
    owner = factories.member(suite.workspace, "owner")
    ann = factories.member(suite.workspace, "reviewer", "ann")
    assign_cases(suite, pks(suite, *IDS), [ann.pk], owner)
    move(suite.cases.get(case_id="alpha"), ann, Action.APPROVED)

    page = signed_in(ann).get(reverse("my_queue")).content.decode()

    assert "1 of 4 reviewed" in page
    assert "Next: bravo" in page


def test_next_goes_on_from_the_case_just_reviewed(suite: Suite) -> None:
    owner = factories.member(suite.workspace, "owner")
    ann = factories.member(suite.workspace, "reviewer", "ann")
    assign_cases(suite, pks(suite, *IDS), [ann.pk], owner)
    bravo = suite.cases.get(case_id="bravo")
    move(bravo, ann, Action.APPROVED)

    response = signed_in(ann).get(reverse("queue_next"), {"after": bravo.pk})

    charlie = suite.cases.get(case_id="charlie")
    editor = reverse("case_editor", args=[suite.workspace.slug, suite.pk, charlie.pk])
    assert response.url == f"{editor}?queue=1"  # type: ignore[attr-defined]


def test_next_after_the_last_case_comes_back_to_the_first_waiting(suite: Suite) -> None:
    owner = factories.member(suite.workspace, "owner")
    ann = factories.member(suite.workspace, "reviewer", "ann")
    assign_cases(suite, pks(suite, *IDS), [ann.pk], owner)

    found = next_in_queue(ann, after=pks(suite, "delta")[0])

    assert found is not None and found.case_id == "alpha"


def test_an_empty_queue_says_every_case_is_reviewed(suite: Suite) -> None:
    owner = factories.member(suite.workspace, "owner")
    ann = factories.member(suite.workspace, "reviewer", "ann")
    assign_cases(suite, pks(suite, "alpha"), [ann.pk], owner)
    move(suite.cases.get(case_id="alpha"), ann, Action.APPROVED)

    response = signed_in(ann).get(reverse("queue_next"), follow=True)

    assert "every case is reviewed" in response.content.decode()


def test_a_case_edited_and_submitted_again_waits_again(suite: Suite) -> None:
    owner = factories.member(suite.workspace, "owner")
    editor = factories.member(suite.workspace, "editor")
    ann = factories.member(suite.workspace, "reviewer", "ann")
    alpha = Case.objects.select_related("suite__workspace").get(case_id="alpha")
    assign_cases(suite, [alpha.pk], [ann.pk], owner)
    move(alpha, ann, Action.CHANGES_REQUESTED)
    alpha = save_case(alpha, {**alpha.document, "outcome": "Better."}, alpha.version, editor)
    move(alpha, editor, Action.SUBMITTED)

    queue = my_queue(ann, look=False)

    assert (queue.reviewed, queue.waiting) == (0, 1)


def test_what_is_new_since_the_last_look_is_marked(suite: Suite) -> None:
    owner = factories.member(suite.workspace, "owner")
    ann = factories.member(suite.workspace, "reviewer", "ann")
    assign_cases(suite, pks(suite, "alpha"), [ann.pk], owner)
    first = my_queue(ann)
    assign_cases(suite, pks(suite, "bravo"), [ann.pk], owner)

    second = my_queue(ann)

    assert [item.new for item in first.items] == [False]
    assert [(item.case.case_id, item.new) for item in second.items] == [
        ("alpha", False),
        ("bravo", True),
    ]


def test_a_case_shows_who_is_assigned_and_who_reviewed(suite: Suite) -> None:
    owner = factories.member(suite.workspace, "owner")
    ann, bob = (factories.member(suite.workspace, "reviewer", name) for name in ("ann", "bob"))
    alpha = suite.cases.get(case_id="alpha")
    assign_cases(suite, [alpha.pk], [ann.pk, bob.pk], owner)
    ReviewRules.objects.create(workspace=suite.workspace, required_approvals=2)
    move(alpha, ann, Action.APPROVED)

    page = (
        signed_in(owner)
        .get(reverse("case_editor", args=[suite.workspace.slug, suite.pk, alpha.pk]))
        .content.decode()
    )

    assert "Assigned to ann, bob." in page
    assert "Reviewed as it stands by ann." in page


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_my_queue_uses_as_many_queries_for_many_cases_as_for_one(suite: Suite) -> None:
    owner = factories.member(suite.workspace, "owner")
    ann = factories.member(suite.workspace, "reviewer", "ann")
    client = signed_in(ann)
    assign_cases(suite, pks(suite, "alpha"), [ann.pk], owner)
    queries(client, reverse("my_queue"))  # the first look is remembered with an insert
    one = queries(client, reverse("my_queue"))
    for number in range(20):
        factories.case(suite, f"more-{number}", status=ReviewStatus.IN_REVIEW)
    assign_cases(suite, list(suite.cases.values_list("pk", flat=True)), [ann.pk], owner)
    for case in suite.cases.all()[:5]:
        move(case, ann, Action.APPROVED)

    assert queries(client, reverse("my_queue")) == one


def test_my_queue_shows_a_page_at_a_time_and_counts_the_whole_queue(suite: Suite) -> None:
    owner = factories.member(suite.workspace, "owner")
    ann = factories.member(suite.workspace, "reviewer", "ann")
    for number in range(QUEUE_PAGE - len(IDS) + 2):
        factories.case(suite, f"more-{number:02}", status=ReviewStatus.IN_REVIEW)
    assign_cases(suite, list(suite.cases.values_list("pk", flat=True)), [ann.pk], owner)
    move(suite.cases.get(case_id="more-47"), ann, Action.APPROVED)
    client = signed_in(ann)

    first = client.get(reverse("my_queue")).content.decode()
    second = client.get(reverse("my_queue"), {"page": 2}).content.decode()

    assert f"Cases 1–{QUEUE_PAGE} of {QUEUE_PAGE + 2}" in first
    assert "more-45" in first and "more-46" not in first
    assert f"Cases {QUEUE_PAGE + 1}–{QUEUE_PAGE + 2} of {QUEUE_PAGE + 2}" in second
    assert "more-46" in second and "more-45" not in second
    assert f"1 of {QUEUE_PAGE + 2} reviewed" in first
    assert f"1 of {QUEUE_PAGE + 2} reviewed" in second


def test_a_page_past_the_last_shows_the_last(suite: Suite) -> None:
    owner = factories.member(suite.workspace, "owner")
    ann = factories.member(suite.workspace, "reviewer", "ann")
    assign_cases(suite, pks(suite, *IDS), [ann.pk], owner)

    queue = my_queue(ann, 99, per_page=3, look=False)

    assert (queue.page, queue.pages) == (2, 2)
    assert [item.case.case_id for item in queue.items] == ["delta"]


def test_next_names_the_first_waiting_case_of_the_whole_queue(suite: Suite) -> None:
    owner = factories.member(suite.workspace, "owner")
    ann = factories.member(suite.workspace, "reviewer", "ann")
    assign_cases(suite, pks(suite, *IDS), [ann.pk], owner)
    suite.cases.exclude(case_id="delta").update(status=ReviewStatus.DRAFT)

    queue = my_queue(ann, per_page=2, look=False)

    assert queue.next_case is not None and queue.next_case.case_id == "delta"
    assert [item.waiting for item in queue.items] == [False, False]
    assert queue.waiting == 1


def test_next_goes_on_to_the_next_suite_of_the_queue(suite: Suite) -> None:
    owner = factories.member(suite.workspace, "owner")
    ann = factories.member(suite.workspace, "reviewer", "ann")
    later = factories.suite(suite.workspace, "zz-later.eval.yaml")
    echo = factories.case(later, "echo", status=ReviewStatus.IN_REVIEW)
    assign_cases(suite, pks(suite, *IDS), [ann.pk], owner)
    assign_cases(later, [echo.pk], [ann.pk], owner)

    found = next_in_queue(ann, after=pks(suite, "delta")[0])

    assert found is not None and found.case_id == "echo"


def test_later_pages_mark_what_is_new_since_the_look_before_the_first_page(
    suite: Suite,
) -> None:
    owner = factories.member(suite.workspace, "owner")
    ann = factories.member(suite.workspace, "reviewer", "ann")
    assign_cases(suite, pks(suite, "alpha", "bravo"), [ann.pk], owner)
    my_queue(ann)
    assign_cases(suite, pks(suite, "charlie", "delta"), [ann.pk], owner)
    first = my_queue(ann, 1, per_page=2)

    second = my_queue(ann, 2, per_page=2)

    assert [item.new for item in first.items] == [False, False]
    assert [item.new for item in second.items] == [True, True]
    assert second.last_seen == first.last_seen

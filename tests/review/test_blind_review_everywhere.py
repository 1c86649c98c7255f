"""Blind review holds on every page and endpoint that shows review data (docs/user-guide.md,
"Blind review"): until a reviewer of a blind workspace approved a case or requested changes
on it, no one else's decision, note or score reaches them. They see the case in review, and
review it as such; once they did, they see everything."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from evals_app.models import (
    Case,
    CaseReview,
    ReviewCriterion,
    ReviewEvent,
    ReviewRules,
    ReviewStatus,
    Workspace,
)
from evals_app.services.jobs.requests import JobRefused, ask_export
from evals_app.services.review.assignments import assign_cases
from evals_app.services.review.criteria import add_criterion
from evals_app.services.review.workflow import move
from tests import factories
from tests.api.api_calls import ApiClient

pytestmark = pytest.mark.django_db
Action = ReviewEvent.Action
SLUG = "blind-evals"


@dataclass
class BlindTeam:
    """A blind workspace: `first` requested changes on `refund` and approved `greeting`, with
    a note and an answer to the review form on each; `blind` (a reviewer, assigned both) has
    reviewed neither; `boss`, an owner, last edited `refund`."""

    workspace: Workspace
    refund: Case
    greeting: Case
    notes: ReviewCriterion
    first: User
    blind: User
    boss: User

    def case_url(self, case: Case, name: str = "case_editor") -> str:
        return reverse(name, args=[SLUG, case.suite_id, case.pk])


@pytest.fixture
def team(django_capture_on_commit_callbacks: Any) -> BlindTeam:
    workspace = factories.workspace("Blind evals")
    ReviewRules.objects.create(workspace=workspace, required_approvals=1, blind=True)
    notes = add_criterion(workspace, "Notes", ReviewCriterion.Kind.TEXT)
    suite = factories.suite(workspace)
    refund = factories.case(suite, "refund", status=ReviewStatus.IN_REVIEW)
    greeting = factories.case(suite, "greeting", status=ReviewStatus.IN_REVIEW)
    boss = factories.member(workspace, "owner", "boss")
    boss.email = "boss@example.com"
    boss.save()
    factories.revision(refund, boss, "made it kinder")
    first = factories.member(workspace, "reviewer", "first")
    blind = factories.member(workspace, "reviewer", "blind")
    assign_cases(suite, [refund.pk, greeting.pk], [blind.pk], boss)
    with django_capture_on_commit_callbacks(execute=True):
        move(refund, first, Action.CHANGES_REQUESTED, "NOTE-REFUND", {notes.pk: "SCORE-REFUND"})
        move(greeting, first, Action.APPROVED, "NOTE-GREETING", {notes.pk: "SCORE-GREETING"})
    return BlindTeam(workspace, refund, greeting, notes, first, blind, boss)


def as_user(account: User) -> Client:
    client = Client()
    client.force_login(account)
    return client


NOTES = ["NOTE-REFUND", "NOTE-GREETING", "SCORE-REFUND", "SCORE-GREETING"]
DECIDED_CLASSES = ["status-changes_requested", "status-approved"]
DECIDED_VALUES = ['"changes_requested"', '"approved"']
REFUND = {"suite": "evals/review.yaml", "id": "refund"}


@dataclass(frozen=True)
class Reader:
    """A page or endpoint that shows review data: what it must not show a blind reviewer who
    has reviewed nothing, and what it shows instead."""

    url: Any  # the team → the path (and query)
    hidden: list[str]
    shown: list[str]
    api: bool = False


READERS = {
    "activity feed": Reader(
        lambda t: reverse("activity", args=[SLUG]), [*NOTES, "requested changes"], []
    ),
    "editor of a case sent back": Reader(
        lambda t: t.case_url(t.refund), [*NOTES, *DECIDED_CLASSES], ["status-in_review"]
    ),
    "editor of an approved case": Reader(
        lambda t: t.case_url(t.greeting), [*NOTES, *DECIDED_CLASSES], ["status-in_review"]
    ),
    "suite page": Reader(
        lambda t: reverse("suite_detail", args=[SLUG, t.refund.suite_id]),
        [*NOTES, *DECIDED_CLASSES],
        ["status-in_review"],
    ),
    "suite page filtered by a decided status": Reader(
        lambda t: (
            reverse("suite_detail", args=[SLUG, t.refund.suite_id]) + "?status=changes_requested"
        ),
        [],
        ["0 of 2 cases shown"],
    ),
    "suite page filtered in review": Reader(
        lambda t: reverse("suite_detail", args=[SLUG, t.refund.suite_id]) + "?status=in_review",
        [],
        ["2 of 2 cases shown"],
    ),
    "suite page sorted by status": Reader(
        lambda t: reverse("suite_detail", args=[SLUG, t.refund.suite_id]) + "?sort=status",
        DECIDED_CLASSES,
        ["status-in_review"],
    ),
    "workspace page": Reader(
        lambda t: reverse("workspace_detail", args=[SLUG]),
        ['aria-label="Changes requested: 1 of', 'aria-label="Approved: 1 of'],
        ['aria-label="In review: 2 of 2 cases"'],
    ),
    "workspace search": Reader(
        lambda t: reverse("workspace_search", args=[SLUG]) + "?q=refund",
        [*NOTES, *DECIDED_CLASSES],
        [],
    ),
    "history page": Reader(lambda t: t.case_url(t.refund, "case_history"), NOTES, []),
    "waiting for my review": Reader(lambda t: reverse("review_queue"), [], ["refund", "greeting"]),
    "my queue": Reader(lambda t: reverse("my_queue"), DECIDED_CLASSES, ["2 waiting for you"]),
    "API: cases": Reader(lambda t: f"/workspaces/{SLUG}/cases", DECIDED_VALUES, [], api=True),
    "API: cases with a decided status": Reader(
        lambda t: f"/workspaces/{SLUG}/cases?status=changes_requested",
        [],
        ['"items": []'],
        api=True,
    ),
    "API: cases in review": Reader(
        lambda t: f"/workspaces/{SLUG}/cases?status=in_review", [], ['"total": 2'], api=True
    ),
    "API: a case": Reader(
        lambda t: f"/workspaces/{SLUG}/case?suite=evals/review.yaml&id=refund",
        DECIDED_VALUES,
        ['"in_review"'],
        api=True,
    ),
    "API: review steps": Reader(
        lambda t: f"/workspaces/{SLUG}/case/review-steps?suite=evals/review.yaml&id=refund",
        [*NOTES, *DECIDED_VALUES],
        [],
        api=True,
    ),
    "API: reviews": Reader(
        lambda t: f"/workspaces/{SLUG}/case/reviews?suite=evals/review.yaml&id=refund",
        NOTES,
        ['"hidden": true'],
        api=True,
    ),
    "API: my queue": Reader(lambda t: "/queue", DECIDED_VALUES, ['"waiting": 2'], api=True),
}


def read(team: BlindTeam, reader: Reader, account: User) -> str:
    """What `account` gets from `reader`, as text."""
    if reader.api:
        response = ApiClient(factories.api_token(account)).client.get(
            "/api/v1" + reader.url(team),
            headers={"Authorization": f"Bearer {factories.api_token(account)}"},
        )
    else:
        response = as_user(account).get(reader.url(team))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("name", READERS)
def test_a_blind_reviewer_gets_no_one_elses_decision_note_or_score(
    team: BlindTeam, name: str
) -> None:
    reader = READERS[name]

    text = read(team, reader, team.blind)

    assert [hidden for hidden in reader.hidden if hidden in text] == []
    assert [shown for shown in reader.shown if shown not in text] == []


@pytest.mark.parametrize(
    "name", ["activity feed", "editor of a case sent back", "API: review steps", "API: reviews"]
)
def test_an_editor_who_does_not_review_sees_the_decisions(team: BlindTeam, name: str) -> None:
    editor = factories.member(team.workspace, "editor", "ed")

    text = read(team, READERS[name], editor)

    assert "NOTE-REFUND" in text or "SCORE-REFUND" in text


def test_a_blind_reviewer_reviews_a_case_others_decided_as_in_review(team: BlindTeam) -> None:
    event = move(team.greeting, team.blind, Action.CHANGES_REQUESTED, "Mine.")

    assert (event.from_status, event.to_status) == (ReviewStatus.APPROVED, ReviewStatus.APPROVED)
    assert CaseReview.objects.filter(case=team.greeting, reviewer=team.blind).exists()
    editor = as_user(team.blind).get(team.case_url(team.greeting)).content.decode()
    assert "status-approved" in editor and "NOTE-GREETING" in editor


def test_a_refusal_names_the_status_the_blind_reviewer_sees(team: BlindTeam) -> None:
    boss = team.boss  # an owner: reviews blind, and may submit

    response = as_user(boss).post(
        team.case_url(team.greeting, "case_review"), {"step": "submit"}, follow=True
    )

    page = response.content.decode()
    assert "greeting is in review; it cannot be submitted for review." in page


def test_notifications_of_a_decision_wait_until_the_blind_reviewer_reviewed(
    team: BlindTeam,
) -> None:
    boss = as_user(team.boss)  # last edited refund: told of the request for changes

    before = (boss.get(reverse("inbox")).content.decode(), boss.get(reverse("inbox_count")))
    move(team.refund, team.boss, Action.CHANGES_REQUESTED, "Agreed.")
    after = boss.get(reverse("inbox")).content.decode()

    assert "NOTE-REFUND" not in before[0]
    assert "unread" not in before[1].content.decode()
    assert [message.to for message in mail.outbox] == []  # sent at the commit: not to boss
    assert "NOTE-REFUND" in after


def test_an_approved_only_export_is_refused_to_a_blind_reviewer(team: BlindTeam) -> None:
    with pytest.raises(JobRefused, match="reviews blind"):
        ask_export(team.boss, team.workspace, approved_only=True)

    editor = factories.member(team.workspace, "editor", "ed")
    assert ask_export(editor, team.workspace, approved_only=True).pk

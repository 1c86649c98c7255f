"""Mentions and notifications: exactly the members named are told, never anyone outside the
workspace; requests for changes, approvals and assignments tell the people concerned; the
inbox, its unread count and the emails each person chose."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, Notification, ReviewEvent, ReviewStatus, Workspace
from evals_app.services.cases.editing import save_case
from evals_app.services.review.assignments import assign_cases
from evals_app.services.review.comments import reply, start_thread
from evals_app.services.review.notifications import mentioned, set_email_kinds
from evals_app.services.review.workflow import move
from evals_app.services.workspaces.memberships import remove_member
from tests import factories

pytestmark = pytest.mark.django_db
Action = ReviewEvent.Action
Kind = Notification.Kind


@pytest.fixture
def workspace() -> Workspace:
    workspace = factories.workspace()
    factories.case(factories.suite(workspace), "refund", ("system", "Be kind."), ("user", "Hi"))
    return workspace


def the_case() -> Case:
    return Case.objects.select_related("suite__workspace").get(case_id="refund")


def person(workspace: Workspace | None, username: str, role: str = "editor") -> User:
    account = factories.user(username, None)
    account.email = f"{username}@example.com"
    account.save()
    if workspace is not None:
        workspace.memberships.create(user=account, role=role)
    return account


def told(account: User) -> list[tuple[str, str]]:
    return list(
        Notification.objects.filter(recipient=account).values_list("kind", "text").order_by("pk")
    )


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("@ann please look", ["ann"]),
        ("Thanks @ann, and @bob.", ["ann", "bob"]),
        ("@ann @ann", ["ann"]),
        ("mail ann@example.com", []),
        ("@first.last: see turn 2", ["first.last"]),
    ],
)
def test_mentions_are_the_usernames_after_an_at_sign(text: str, names: list[str]) -> None:
    assert mentioned(text) == names


def test_a_comment_tells_exactly_the_members_it_mentions(
    workspace: Workspace, django_capture_on_commit_callbacks: Any
) -> None:
    author, ann, bob = (person(workspace, name) for name in ("rita", "ann", "bob"))
    outsider = person(None, "eve")

    with django_capture_on_commit_callbacks(execute=True):
        start_thread(the_case(), author, "@ann and @eve: is turn 2 right?", "input", 1)

    assert told(ann) == [
        (Kind.MENTION, "rita mentioned you on refund: @ann and @eve: is turn 2 right?")
    ]
    assert told(bob) == told(outsider) == told(author) == []
    assert [message.to for message in mail.outbox] == [["ann@example.com"]]
    assert "#threads-input-1" in mail.outbox[0].body


def test_a_reply_tells_the_members_it_mentions(workspace: Workspace) -> None:
    author, ann = person(workspace, "rita"), person(workspace, "ann")
    thread = start_thread(the_case(), author, "Why this?")

    reply(thread, author, "@ann what do you think?")

    link = Notification.objects.get(recipient=ann).link
    assert link.endswith(f"#thread-{thread.pk}")


def test_no_email_for_a_kind_the_person_turned_off(
    workspace: Workspace, django_capture_on_commit_callbacks: Any
) -> None:
    author, ann = person(workspace, "rita"), person(workspace, "ann")
    set_email_kinds(ann, [Kind.ASSIGNMENT])

    with django_capture_on_commit_callbacks(execute=True):
        start_thread(the_case(), author, "@ann look")

    assert len(told(ann)) == 1
    assert mail.outbox == []


def test_a_request_for_changes_tells_the_cases_last_editor(
    workspace: Workspace, django_capture_on_commit_callbacks: Any
) -> None:
    editor, reviewer = person(workspace, "ed"), person(workspace, "rita", "reviewer")
    case = the_case()
    case = save_case(case, {**case.document, "outcome": "Kinder."}, case.version, editor)
    move(case, editor, Action.SUBMITTED)

    with django_capture_on_commit_callbacks(execute=True):
        move(case, reviewer, Action.CHANGES_REQUESTED, "Turn 2 is vague.")

    assert told(editor) == [
        (Kind.CHANGES_REQUESTED, "rita requested changes on refund: Turn 2 is vague.")
    ]
    assert mail.outbox[0].to == ["ed@example.com"]


def test_an_approval_that_approves_tells_the_author(workspace: Workspace) -> None:
    editor, reviewer = person(workspace, "ed"), person(workspace, "rita", "reviewer")
    case = the_case()
    case = save_case(case, {**case.document, "outcome": "Kinder."}, case.version, editor)
    move(case, editor, Action.SUBMITTED)

    move(case, reviewer, Action.APPROVED)

    assert case.status == ReviewStatus.APPROVED
    assert told(editor) == [(Kind.APPROVED, "rita approved refund")]


def test_assigning_cases_tells_each_reviewer_once(workspace: Workspace) -> None:
    owner = person(workspace, "olga", "owner")
    ann = person(workspace, "ann", "reviewer")
    suite = the_case().suite
    factories.case(suite, "other")

    assign_cases(suite, list(suite.cases.values_list("pk", flat=True)), [ann.pk], owner)

    assert told(ann) == [(Kind.ASSIGNMENT, "olga assigned you 2 cases of evals/review.yaml")]


def test_the_header_counts_unread_notifications_and_opening_one_reads_it(
    workspace: Workspace,
) -> None:
    author, ann = person(workspace, "rita"), person(workspace, "ann")
    start_thread(the_case(), author, "@ann look", "input", 0)
    client = Client()
    client.force_login(ann)

    count = client.get(reverse("inbox_count")).content.decode()
    notification = Notification.objects.get(recipient=ann)
    response = client.post(reverse("notification_open", args=[notification.pk]))

    assert 'aria-label="1 unread"' in count
    assert response.url.endswith("#threads-input-0")  # type: ignore[attr-defined]
    assert "unread" not in client.get(reverse("inbox_count")).content.decode()


def test_nobody_opens_someone_elses_notification(workspace: Workspace) -> None:
    author, ann = person(workspace, "rita"), person(workspace, "ann")
    start_thread(the_case(), author, "@ann look")
    client = Client()
    client.force_login(author)

    response = client.post(
        reverse("notification_open", args=[Notification.objects.get(recipient=ann).pk])
    )

    assert response.status_code == 404


def test_email_choices_are_saved_from_the_inbox(workspace: Workspace) -> None:
    ann = person(workspace, "ann")
    client = Client()
    client.force_login(ann)

    client.post(reverse("inbox_preferences"), {"email": ["mention", "approved", "nonsense"]})
    page = client.get(reverse("inbox")).content.decode()

    assert 'value="mention" checked' in page
    assert 'value="assignment">' in page


# Access lost: a workspace's notifications go with it.


def test_a_member_removed_no_longer_reads_the_workspaces_notifications(
    workspace: Workspace,
) -> None:
    owner, ann = person(workspace, "olga", "owner"), person(workspace, "ann")
    start_thread(the_case(), owner, "@ann the refund wording is off")
    notification = Notification.objects.get(recipient=ann)
    remove_member(workspace, workspace.memberships.get(user=ann).pk, owner)
    client = Client()
    client.force_login(ann)

    inbox = client.get(reverse("inbox")).content.decode()
    count = client.get(reverse("inbox_count")).content.decode()
    opened = client.post(reverse("notification_open", args=[notification.pk]))

    assert "refund" not in inbox
    assert "unread" not in count
    assert opened.status_code == 404


def test_no_email_goes_to_a_member_removed_before_it_is_sent(
    workspace: Workspace, django_capture_on_commit_callbacks: Any
) -> None:
    owner, ann = person(workspace, "olga", "owner"), person(workspace, "ann")

    with django_capture_on_commit_callbacks(execute=True):
        start_thread(the_case(), owner, "@ann the refund wording is off")
        remove_member(workspace, workspace.memberships.get(user=ann).pk, owner)

    assert mail.outbox == []


def test_a_member_added_again_reads_them_again(workspace: Workspace) -> None:
    owner, ann = person(workspace, "olga", "owner"), person(workspace, "ann")
    start_thread(the_case(), owner, "@ann the refund wording is off")
    remove_member(workspace, workspace.memberships.get(user=ann).pk, owner)
    workspace.memberships.create(user=ann, role="viewer")
    client = Client()
    client.force_login(ann)

    assert "refund" in client.get(reverse("inbox")).content.decode()

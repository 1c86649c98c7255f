"""The comment form says whom a comment's mentions reached: the members notified, and the names
that notify nobody (an account that is not a member, a name no account has)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, Notification, Workspace
from evals_app.services.review.notifications import mention_reach
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def workspace() -> Workspace:
    workspace = factories.workspace()
    factories.case(factories.suite(workspace), "refund")
    return workspace


def signed_in(account: User) -> Client:
    client = Client()
    client.force_login(account)
    return client


def test_the_reach_names_the_members_told_and_the_names_that_tell_nobody(
    workspace: Workspace,
) -> None:
    author = factories.member(workspace, "reviewer", "rita")
    factories.member(workspace, "editor", "ann")
    factories.admin("admin")

    reach = mention_reach(workspace.pk, "@ann @admin @zed @rita: see turn 2", author)

    assert reach == (["ann"], ["admin"], ["zed"])
    assert reach.said() == [
        "Notified @ann.",
        "Not notified: @admin is not a member of this workspace.",
        "Not notified: @zed is no user here.",
    ]


def test_a_comment_without_mentions_says_nothing_about_them(workspace: Workspace) -> None:
    assert mention_reach(workspace.pk, "No names here.").said() == []


def test_the_review_panel_says_whom_a_new_comment_notified(workspace: Workspace) -> None:
    rita = factories.member(workspace, "reviewer", "rita")
    ann = factories.member(workspace, "editor", "ann")
    factories.admin("admin")
    case = Case.objects.get(case_id="refund")
    url = reverse("thread_create", args=[workspace.slug, case.suite_id, case.pk])

    response = signed_in(rita).post(
        url,
        {"anchor": "input-0", "text": "@admin and @ann: is this right?"},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 200
    said = response.content.decode()
    assert "Notified @ann. Not notified: @admin is not a member of this workspace." in said
    assert Notification.objects.filter(recipient=ann).count() == 1
    assert not Notification.objects.exclude(recipient=ann).exists()


def test_a_reply_without_javascript_says_whom_it_notified_on_the_editor(
    workspace: Workspace,
) -> None:
    rita = factories.member(workspace, "reviewer", "rita")
    case = Case.objects.get(case_id="refund")
    thread = factories.comment_thread(case, rita)
    url = reverse("thread_reply", args=[workspace.slug, case.suite_id, case.pk, thread.pk])

    response = signed_in(rita).post(url, {"text": "@nobody?"}, follow=True)

    assert "Not notified: @nobody is no user here." in response.content.decode()

"""Members by username or email, and invitations: an owner adds an email no account has and gets
a link; it lets the person create their account and join, once, within a week, and cannot be
forged (docs/user-guide.md, "Members")."""

from __future__ import annotations

import re
import time
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from evals_app.models import Workspace
from evals_app.services.workspaces.invitations import (
    INVITATION_DAYS,
    InvitationError,
    accept_invitation,
    invitation_token,
)
from tests.factories import member, workspace

pytestmark = pytest.mark.django_db

PASSWORD = "a long enough passphrase"


@pytest.fixture
def team() -> Workspace:
    return workspace("Team evals")


@pytest.fixture
def owner(team: Workspace) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(member(team, "owner", "olivia"))
    return client


def csrf(client: Client, url: str) -> str:
    page = client.get(url).content.decode()
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]


def add(client: Client, team: Workspace, who: str, role: str = "editor") -> str:
    """Post the "Add or change member" form; the workspace page it leads to, as text."""
    response = client.post(
        reverse("member_add", args=[team.slug]),
        {
            "username": who,
            "role": role,
            "csrfmiddlewaretoken": csrf(client, team.get_absolute_url()),
        },
        follow=True,
    )
    return unescape(response.content.decode())


def invitation_link(page: str) -> str:
    found = re.search(r"http://testserver(/invitations/[^/\s]+/)", page)
    assert found is not None, page
    return found.group(1)


def accept(link: str, username: str) -> None:
    client = Client(enforce_csrf_checks=True)
    fields = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(link, {**fields, "csrfmiddlewaretoken": csrf(client, link)})
    assert response.status_code == 302


def test_a_member_is_added_by_the_email_of_their_account(owner: Client, team: Workspace) -> None:
    User.objects.create_user("eddie", email="Eddie@example.com", password=None)

    page = add(owner, team, "eddie@example.com")

    assert "eddie is now Editor." in page
    assert team.memberships.filter(user__username="eddie", role="editor").exists()


def test_an_email_no_account_has_gives_an_invitation_link(owner: Client, team: Workspace) -> None:
    page = add(owner, team, "new@example.com", "reviewer")

    assert "No account has the email new@example.com." in page
    assert f"join as Reviewer, once, within {INVITATION_DAYS} days" in page
    invitation_link(page)
    assert not User.objects.filter(email="new@example.com").exists()


def test_a_username_no_account_has_is_refused(owner: Client, team: Workspace) -> None:
    page = add(owner, team, "nobody")

    assert "There is no active account named &#x27;nobody&#x27;." in page or (
        "There is no active account named 'nobody'." in page
    )
    assert "/invitations/" not in page


def test_the_invitation_creates_the_account_joins_and_logs_in(
    owner: Client, team: Workspace
) -> None:
    link = invitation_link(add(owner, team, "new@example.com", "reviewer"))
    client = Client(enforce_csrf_checks=True)

    response = client.post(
        link,
        {
            "username": "nora",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "csrfmiddlewaretoken": csrf(client, link),
        },
    )

    assert response.status_code == 302 and response["Location"] == team.get_absolute_url()
    account = User.objects.get(username="nora")
    assert account.email == "new@example.com" and account.check_password(PASSWORD)
    assert team.memberships.get(user=account).role == "reviewer"
    assert client.get(team.get_absolute_url()).status_code == 200


def test_the_invitation_page_needs_no_login(owner: Client, team: Workspace) -> None:
    link = invitation_link(add(owner, team, "new@example.com"))

    page = Client().get(link)

    assert page.status_code == 200
    assert "Join Team evals" in page.content.decode()


def test_an_invitation_works_once(owner: Client, team: Workspace) -> None:
    link = invitation_link(add(owner, team, "new@example.com"))
    accept(link, "nora")

    second = Client().get(link)
    again = Client().post(
        link, {"username": "mallory", "password1": PASSWORD, "password2": PASSWORD}
    )

    assert second.status_code == 410 and again.status_code == 410
    assert "This invitation was used already" in second.content.decode()
    assert not User.objects.filter(username="mallory").exists()


def test_an_invitation_expires_after_a_week(
    team: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now - INVITATION_DAYS * 86400 - 60)
    token = invitation_token(team, "late@example.com", "editor")
    monkeypatch.setattr(time, "time", lambda: now)

    page = Client().get(reverse("invitation", args=[token]))

    assert page.status_code == 410
    assert "This invitation has expired" in page.content.decode()


@pytest.mark.parametrize("change", ["role", "signature"])
def test_a_changed_invitation_link_is_refused(team: Workspace, change: str) -> None:
    token = invitation_token(team, "new@example.com", "viewer")
    forged = (
        token.replace(token.split(":")[0], token.split(":")[0][:-2] + "xx")
        if change == "role"
        else token[:-3] + "abc"
    )

    page = Client().get(reverse("invitation", args=[forged]))

    assert page.status_code == 410
    assert "This invitation link is not valid" in page.content.decode()


@pytest.mark.parametrize(
    ("username", "password", "again", "words"),
    [
        ("", PASSWORD, None, "Choose a username."),
        ("olivia", PASSWORD, None, "The username &#x27;olivia&#x27; is taken"),
        ("nora", "short", None, "This password is too short."),
        ("nora", PASSWORD, "something else", "The two passwords differ"),
        ("no ra", PASSWORD, None, "Enter a valid username."),
    ],
)
def test_an_account_the_invitation_cannot_create_is_refused_with_a_message(
    owner: Client, team: Workspace, username: str, password: str, again: str | None, words: str
) -> None:
    link = invitation_link(add(owner, team, "new@example.com"))
    client = Client()

    response = client.post(
        link,
        {"username": username, "password1": password, "password2": again or password},
    )

    assert response.status_code == 422
    assert words in response.content.decode()
    assert not User.objects.filter(email="new@example.com").exists()


def test_inviting_the_email_of_an_account_is_refused(team: Workspace) -> None:
    User.objects.create_user("eddie", email="eddie@example.com", password=None, is_active=False)

    with pytest.raises(Exception, match="An account has the email"):
        invitation_token(team, "EDDIE@example.com", "editor")


def test_accepting_refuses_a_link_of_a_deleted_workspace(team: Workspace) -> None:
    token = invitation_token(team, "new@example.com", "editor")
    team.delete()

    with pytest.raises(InvitationError, match="no longer exists"):
        accept_invitation(token, "nora", PASSWORD)


def test_only_an_owner_invites(team: Workspace) -> None:
    client = Client()
    client.force_login(member(team, "editor", "eddie"))

    response = client.post(
        reverse("member_add", args=[team.slug]), {"username": "new@example.com", "role": "owner"}
    )

    assert response.status_code == 403

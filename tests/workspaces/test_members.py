"""Members of a workspace: any first role, the one-owner rule explained, removal asked first."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import Membership, Workspace
from evals_app.services.workspaces.memberships import MembershipError, add_member, remove_member
from tests.factories import admin, member, user, workspace

pytestmark = pytest.mark.django_db


@pytest.fixture
def team() -> Workspace:
    return workspace("Team evals")


@pytest.mark.parametrize("role", Membership.Role.values)
def test_first_member_may_have_any_role(team: Workspace, role: str) -> None:
    user("first", password=None)

    membership = add_member(team, "first", role)

    assert membership.role == role


def test_more_members_may_join_a_workspace_without_owner(team: Workspace) -> None:
    user("eddie", password=None)
    user("vera", password=None)
    add_member(team, "eddie", "editor")

    add_member(team, "vera", "viewer")
    remove_member(team, team.memberships.get(user__username="eddie").pk)

    assert list(team.memberships.values_list("role", flat=True)) == ["viewer"]


def test_last_owner_cannot_become_an_editor_and_the_error_says_what_to_do(
    team: Workspace,
) -> None:
    owner = member(team, "owner", "olivia")

    with pytest.raises(MembershipError) as refused:
        add_member(team, owner.username, "editor")

    assert str(refused.value).startswith(
        "olivia is the last owner of Team evals: make someone else an owner first"
    )
    assert "a workspace that has an owner keeps at least one" in str(refused.value)
    assert team.memberships.get().role == "owner"


def test_last_owner_cannot_be_removed(team: Workspace) -> None:
    member(team, "owner", "olivia")

    with pytest.raises(MembershipError, match="make someone else an owner first"):
        remove_member(team, team.memberships.get().pk)

    assert team.memberships.count() == 1


def test_an_owner_may_go_once_there_is_another(team: Workspace) -> None:
    member(team, "owner", "olivia")
    member(team, "editor", "eddie")
    add_member(team, "eddie", "owner")

    remove_member(team, team.memberships.get(user__username="olivia").pk)

    assert list(team.memberships.values_list("user__username", "role")) == [("eddie", "owner")]


def test_members_form_explains_the_one_owner_rule(team: Workspace) -> None:
    client = Client()
    client.force_login(admin())
    page = reverse("workspace_detail", args=[team.slug])

    empty = client.get(page).content.decode()
    member(team, "owner", "olivia")
    owned = client.get(page).content.decode()

    assert "The workspace has no owner yet: add members with any role" in empty
    assert "A workspace that has an owner keeps at least one" in owned


def test_demoting_the_last_owner_in_the_form_shows_the_rule(team: Workspace) -> None:
    client = Client()
    client.force_login(member(team, "owner", "olivia"))

    response = client.post(
        reverse("member_add", args=[team.slug]), {"username": "olivia", "role": "viewer"}
    )

    assert response.status_code == 422
    assert "olivia is the last owner of Team evals: make someone else an owner first" in (
        response.content.decode().replace("&#x27;", "'")
    )


def test_removing_a_member_asks_first_without_javascript(team: Workspace) -> None:
    client = Client()
    client.force_login(member(team, "owner", "olivia"))
    eddie = member(team, "editor", "eddie")
    membership = team.memberships.get(user=eddie)

    html = client.get(reverse("workspace_detail", args=[team.slug])).content.decode()

    # The button that removes is inside a <details> that must be opened first.
    remove_url = reverse("member_remove", args=[team.slug, membership.pk])
    details = html[html.index('<details class="confirm">', html.index('id="members"')) :]
    details = details[: details.index("</details>")]
    assert "<summary>Remove" in details
    assert f'action="{remove_url}"' in details
    assert "Yes, remove eddie</button>" in details
    response = client.post(remove_url)
    assert response.status_code == 302
    assert not team.memberships.filter(user=eddie).exists()

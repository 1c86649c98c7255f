"""Workspaces from the browser: anyone signed in creates one and owns it; its owners rename it
and delete it (typing its name to confirm); nobody else may."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import ActivityRecord, Membership, Workspace
from tests import factories

pytestmark = pytest.mark.django_db

NEW = reverse("workspace_create")


@pytest.fixture
def team(db: None) -> Workspace:
    workspace = factories.workspace("Team evals")
    factories.case(factories.suite(workspace, "evals/a.yaml"), "case-1")
    factories.workspace_file(workspace, "notes.md")
    return workspace


def as_role(client: Client, workspace: Workspace, role: str) -> Client:
    client.force_login(factories.member(workspace, role))
    return client


def test_the_workspace_list_offers_new_workspace_and_import(client: Client, db: None) -> None:
    client.force_login(factories.user("alice", password=None))

    html = client.get(reverse("workspace_list")).content.decode()

    assert f'<a href="{NEW}" class="button">New workspace</a>' in html
    assert f'<a href="{reverse("workspace_import")}" class="button">Import from .zip</a>' in html


def test_any_signed_in_user_creates_an_empty_workspace_and_owns_it(
    client: Client, db: None
) -> None:
    alice = factories.user("alice", password=None)
    client.force_login(alice)

    response = client.post(NEW, {"name": "  Alice's evals "})

    workspace = Workspace.objects.get(name="Alice's evals")
    assert response.status_code == 302
    assert response["Location"] == "/w/alices-evals/"
    assert workspace.suites.count() == 0
    assert Membership.objects.get(workspace=workspace).role == "owner"
    assert client.get(response["Location"]).status_code == 200


@pytest.mark.parametrize(
    ("name", "message"),
    [
        pytest.param("", "This field is required.", id="empty"),
        pytest.param("   ", "This field is required.", id="spaces"),
        pytest.param(
            "team EVALS", "A workspace named &#x27;team EVALS&#x27; already exists", id="taken"
        ),
        pytest.param("Bell\x07", "control or invisible characters", id="control character"),
    ],
)
def test_a_new_workspace_with_a_bad_name_is_refused_on_the_form(
    client: Client, team: Workspace, name: str, message: str
) -> None:
    client.force_login(factories.user("alice", password=None))

    response = client.post(NEW, {"name": name})

    assert response.status_code == 422
    assert message in response.content.decode()
    assert Workspace.objects.count() == 1


def test_names_that_slugify_alike_get_distinct_addresses(client: Client, team: Workspace) -> None:
    client.force_login(factories.user("alice", password=None))

    client.post(NEW, {"name": "Team evals!"})

    assert Workspace.objects.get(name="Team evals!").slug == "team-evals-2"


def test_owners_find_rename_and_delete_on_the_workspace_page(
    client: Client, team: Workspace
) -> None:
    settings_url = reverse("workspace_settings", args=[team.slug])

    owner_page = as_role(client, team, "owner").get(team.get_absolute_url()).content.decode()
    editor_page = as_role(Client(), team, "editor").get(team.get_absolute_url()).content.decode()

    assert settings_url in owner_page
    assert settings_url not in editor_page


def test_an_owner_renames_the_workspace_and_its_address_follows(
    client: Client, team: Workspace
) -> None:
    as_role(client, team, "owner")

    response = client.post(reverse("workspace_rename", args=[team.slug]), {"name": "Support"})

    team.refresh_from_db()
    assert (team.name, team.slug) == ("Support", "support")
    assert response["Location"] == "/w/support/"
    assert client.get("/w/team-evals/").status_code == 404


def test_renaming_to_a_taken_name_is_refused_on_the_form(client: Client, team: Workspace) -> None:
    factories.workspace("Support")
    as_role(client, team, "owner")

    response = client.post(reverse("workspace_rename", args=[team.slug]), {"name": "support"})

    assert response.status_code == 422
    assert "already exists" in response.content.decode()
    team.refresh_from_db()
    assert team.name == "Team evals"


@pytest.mark.parametrize("role", ["editor", "reviewer", "viewer"])
def test_only_owners_may_rename_or_delete_a_workspace(
    client: Client, team: Workspace, role: str
) -> None:
    as_role(client, team, role)

    settings_page = client.get(reverse("workspace_settings", args=[team.slug]))
    rename = client.post(reverse("workspace_rename", args=[team.slug]), {"name": "Mine"})
    delete = client.post(
        reverse("workspace_delete", args=[team.slug]), {"confirm_name": "Team evals"}
    )

    assert (settings_page.status_code, rename.status_code, delete.status_code) == (403, 403, 403)
    team.refresh_from_db()
    assert team.name == "Team evals"


def test_deleting_needs_the_name_typed_exactly(client: Client, team: Workspace) -> None:
    as_role(client, team, "owner")

    response = client.post(
        reverse("workspace_delete", args=[team.slug]), {"confirm_name": "team evals"}
    )

    assert response.status_code == 422
    assert "Type the workspace&#x27;s name, Team evals, to delete it." in response.content.decode()
    assert Workspace.objects.filter(pk=team.pk).exists()


def test_an_owner_deletes_the_workspace_with_everything_in_it(
    client: Client, team: Workspace
) -> None:
    as_role(client, team, "owner")

    response = client.post(
        reverse("workspace_delete", args=[team.slug]), {"confirm_name": "Team evals"}
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("workspace_list")
    assert not Workspace.objects.filter(pk=team.pk).exists()
    assert factories.database_snapshot()["Suite"] == []
    assert not ActivityRecord.objects.exists()


def test_the_settings_page_says_what_deleting_takes_with_it(
    client: Client, team: Workspace
) -> None:
    html = as_role(client, team, "owner").get(reverse("workspace_settings", args=[team.slug]))

    assert "its 1 suite with every case" in html.content.decode()


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("workspace_create", {"name": "Forged"}),
        ("workspace_rename", {"name": "Forged"}),
        ("workspace_delete", {"confirm_name": "Team evals"}),
    ],
)
def test_workspace_changes_need_the_csrf_token(
    team: Workspace, name: str, data: dict[str, str]
) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(factories.member(team, "owner"))
    url = reverse(name) if name == "workspace_create" else reverse(name, args=[team.slug])

    response = client.post(url, data)

    assert response.status_code == 403
    assert list(Workspace.objects.values_list("name", flat=True)) == ["Team evals"]

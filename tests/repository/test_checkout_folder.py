"""The workspace's checkout folder: stored at import, editable by owners on the workspace page,
and used by agent mode's absolute paths (docs/formatting.md, "Agent mode's absolute paths")."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from evals_app.models import Workspace
from evals_app.services.workspaces.lifecycle import CheckoutFolderError, clean_checkout_folder
from tests import factories

pytestmark = pytest.mark.django_db

SUITE = factories.eval_document(factories.simple_case("only-case"))


def test_import_stores_the_folder_imported_from(tmp_path: Path) -> None:
    root = factories.write_files(tmp_path / "repo", {"evals/a.yaml": SUITE})
    workspace = factories.imported_workspace(root)
    assert workspace.checkout_folder == root.resolve().as_posix()


def test_a_new_import_from_elsewhere_moves_the_folder(tmp_path: Path) -> None:
    first = factories.write_files(tmp_path / "one", {"evals/a.yaml": SUITE})
    second = factories.write_files(tmp_path / "two", {"evals/a.yaml": SUITE})
    factories.imported_workspace(first, "Team")
    workspace = factories.imported_workspace(second, "Team")
    assert workspace.checkout_folder == second.resolve().as_posix()


def test_a_zip_import_leaves_the_folder_unknown(client: Client) -> None:
    client.force_login(factories.user("alice", password=None))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("repo/evals/a.yaml", "evalcases:\n- id: a\n  outcome: x\n  input: Hi\n")
    upload = SimpleUploadedFile("repo.zip", buffer.getvalue(), content_type="application/zip")
    client.post(reverse("workspace_import"), {"archive": upload, "name": ""})
    assert Workspace.objects.get(name="repo").checkout_folder == ""


def test_an_owner_sets_the_folder_on_the_workspace_page(client: Client) -> None:
    workspace = factories.workspace("Team evals")
    client.force_login(factories.member(workspace, "owner"))
    url = reverse("workspace_checkout_folder", args=[workspace.slug])

    response = client.post(url, {"checkout_folder": "  /srv/agentv-repo/  "}, follow=True)

    workspace.refresh_from_db()
    assert workspace.checkout_folder == "/srv/agentv-repo"
    html = response.content.decode()
    assert "Checkout folder set to /srv/agentv-repo." in html
    assert "<code>/srv/agentv-repo</code>" in html


def test_an_empty_folder_clears_it(client: Client) -> None:
    workspace = factories.workspace("Team evals", checkout_folder="/srv/repo")
    client.force_login(factories.member(workspace, "owner"))
    client.post(
        reverse("workspace_checkout_folder", args=[workspace.slug]), {"checkout_folder": ""}
    )
    workspace.refresh_from_db()
    assert workspace.checkout_folder == ""


@pytest.mark.parametrize("role", ["editor", "reviewer", "viewer"])
def test_only_owners_set_the_folder(client: Client, role: str) -> None:
    workspace = factories.workspace("Team evals", checkout_folder="/srv/repo")
    client.force_login(factories.member(workspace, role))
    url = reverse("workspace_checkout_folder", args=[workspace.slug])

    assert client.post(url, {"checkout_folder": "/elsewhere"}).status_code == 403
    workspace.refresh_from_db()
    assert workspace.checkout_folder == "/srv/repo"
    page = client.get(reverse("workspace_detail", args=[workspace.slug])).content.decode()
    assert 'action="' + url + '"' not in page
    assert "<code>/srv/repo</code>" in page


def test_a_folder_with_a_line_break_is_refused_on_the_page(client: Client) -> None:
    workspace = factories.workspace("Team evals")
    client.force_login(factories.member(workspace, "owner"))
    url = reverse("workspace_checkout_folder", args=[workspace.slug])

    response = client.post(url, {"checkout_folder": "/srv/a\nb"})

    assert response.status_code == 422
    assert "no line breaks or control characters" in response.content.decode()


@pytest.mark.parametrize(
    ("raw", "stored"),
    [("", ""), ("/", "/"), ("/srv/repo/", "/srv/repo"), (" C:/work/repo ", "C:/work/repo")],
)
def test_clean_checkout_folder(raw: str, stored: str) -> None:
    assert clean_checkout_folder(raw) == stored


def test_clean_checkout_folder_refuses_control_characters() -> None:
    with pytest.raises(CheckoutFolderError):
        clean_checkout_folder("/srv/\x00repo")

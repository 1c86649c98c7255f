"""Renaming and deleting a suite from its page: owners and editors only, the path checked
before it is stored, deletion only after a confirmation."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, Suite, Workspace
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def suite(db: None) -> Suite:
    workspace = factories.workspace("Team evals")
    suite = factories.suite(workspace, "evals/review.yaml")
    factories.case(suite, "case-1")
    factories.case(suite, "case-2")
    factories.suite(workspace, "evals/taken.yaml")
    factories.workspace_file(workspace, "fixtures/app.js")
    return suite


def signed_in_as(client: Client, workspace: Workspace, role: str) -> Client:
    client.force_login(factories.member(workspace, role))
    return client


def url(name: str, suite: Suite) -> str:
    return reverse(name, args=[suite.workspace.slug, suite.pk])


def test_editors_find_rename_and_delete_on_the_suite_page(client: Client, suite: Suite) -> None:
    editor = signed_in_as(client, suite.workspace, "editor").get(url("suite_detail", suite))
    viewer = signed_in_as(Client(), suite.workspace, "viewer").get(url("suite_detail", suite))

    for link in (url("suite_rename", suite), url("suite_delete", suite)):
        assert link in editor.content.decode()
        assert link not in viewer.content.decode()


def test_renaming_moves_the_suite_with_its_cases(client: Client, suite: Suite) -> None:
    signed_in_as(client, suite.workspace, "editor")

    response = client.post(url("suite_rename", suite), {"path": "evals/coding/review.yml"})

    assert response.status_code == 302
    assert response["Location"] == url("suite_detail", suite)
    suite.refresh_from_db()
    assert suite.path == "evals/coding/review.yml"
    assert list(suite.cases.values_list("case_id", flat=True)) == ["case-1", "case-2"]
    page = client.get(response["Location"]).content.decode()
    assert "Renamed evals/review.yaml to evals/coding/review.yml." in page
    assert "<h1>evals/coding/review.yml</h1>" in page


@pytest.mark.usefixtures("tasks_in_the_database")
def test_renaming_recomputes_what_the_cases_find_from_their_new_folder(
    client: Client, suite: Suite
) -> None:
    signed_in_as(client, suite.workspace, "owner")

    client.post(url("suite_rename", suite), {"path": "other/review.yaml"})

    assert factories.summaries_pending(suite)


def test_the_rename_form_starts_with_the_current_path(client: Client, suite: Suite) -> None:
    html = signed_in_as(client, suite.workspace, "editor").get(url("suite_rename", suite))

    assert 'value="evals/review.yaml"' in html.content.decode()
    assert '<label for="suite-path">' in html.content.decode()


BAD_PATHS = [
    pytest.param("", "This field is required.", id="empty"),
    pytest.param("   ", "A path is required", id="only spaces"),
    pytest.param("/evals/a.yaml", "relative to the workspace root", id="absolute"),
    pytest.param("../a.yaml", "cannot contain . or .. folders", id="parent folder"),
    pytest.param("evals/../../a.yaml", "cannot contain . or .. folders", id="parent inside"),
    pytest.param("evals\\a.yaml", "Separate folders with /", id="backslash"),
    pytest.param("evals/a\x01.yaml", "control characters", id="control character"),
    pytest.param("evals/a\u202e.yaml", "invisible formatting characters", id="bidi override"),
    pytest.param(" evals/a.yaml", "cannot start or end with a space", id="leading space"),
    pytest.param("evals/a.yaml ", "cannot start or end with a space", id="trailing space"),
    pytest.param("evals /a.yaml", "nor can a folder or file name", id="space in a folder"),
]


@pytest.mark.parametrize(
    ("path", "message"),
    [
        *BAD_PATHS,
        pytest.param("evals/review.txt", "must end in .yaml or .yml", id="not yaml"),
        pytest.param("evals/taken.yaml", "already exists", id="taken by a suite"),
        pytest.param("fixtures/app.js/a.yaml", "would clash with fixtures/app.js", id="file"),
        pytest.param(
            ".agentv/x.yaml", "never reads eval files in a .agentv/ folder", id="config folder"
        ),
    ],
)
def test_renaming_to_a_bad_path_shows_why_on_the_form(
    client: Client, suite: Suite, path: str, message: str
) -> None:
    signed_in_as(client, suite.workspace, "editor")

    response = client.post(url("suite_rename", suite), {"path": path})

    assert response.status_code == 422
    html = response.content.decode()
    assert message.replace("'", "&#x27;") in html
    assert "<h1>Rename evals/review.yaml</h1>" in html
    suite.refresh_from_db()
    assert suite.path == "evals/review.yaml"


@pytest.mark.parametrize(("path", "message"), BAD_PATHS)
def test_adding_or_renaming_a_file_at_a_bad_path_shows_why_on_the_form(
    client: Client, suite: Suite, path: str, message: str
) -> None:
    workspace = suite.workspace
    file = workspace.files.get()
    signed_in_as(client, workspace, "editor")
    upload = SimpleUploadedFile("notes.md", b"Notes.")

    added = client.post(reverse("file_create", args=[workspace.slug]), {"path": path})
    renamed = client.post(
        reverse("file_edit", args=[workspace.slug, file.pk]), {"path": path, "text": "x"}
    )
    responses = [added, renamed]
    if path:  # an upload with no path is stored under the uploaded file's name
        upload_url = reverse("file_upload", args=[workspace.slug])
        responses.append(client.post(upload_url, {"path": path, "file": upload}))

    for response in responses:
        assert response.status_code == 422
        assert message in response.content.decode()
    assert list(workspace.files.values_list("path", flat=True)) == ["fixtures/app.js"]


def test_the_delete_link_asks_first_and_deletes_nothing(client: Client, suite: Suite) -> None:
    signed_in_as(client, suite.workspace, "editor")

    response = client.get(url("suite_delete", suite))

    html = response.content.decode()
    assert response.status_code == 200
    assert "its 2 cases" in html
    assert "Yes, delete evals/review.yaml" in html
    assert Suite.objects.filter(pk=suite.pk).exists()


def test_confirming_deletes_the_suite_and_its_cases(client: Client, suite: Suite) -> None:
    signed_in_as(client, suite.workspace, "editor")

    response = client.post(url("suite_delete", suite))

    assert response.status_code == 302
    assert response["Location"] == suite.workspace.get_absolute_url()
    assert not Suite.objects.filter(pk=suite.pk).exists()
    assert not Case.objects.filter(case_id__in=["case-1", "case-2"]).exists()
    page = client.get(response["Location"]).content.decode()
    assert "Deleted evals/review.yaml and its 2 cases." in page


@pytest.mark.parametrize("role", ["reviewer", "viewer"])
@pytest.mark.parametrize("name", ["suite_rename", "suite_delete"])
def test_reviewers_and_viewers_may_not_rename_or_delete_a_suite(
    client: Client, suite: Suite, role: str, name: str
) -> None:
    signed_in_as(client, suite.workspace, role)

    shown = client.get(url(name, suite))
    posted = client.post(url(name, suite), {"path": "evals/mine.yaml"})

    assert (shown.status_code, posted.status_code) == (403, 403)
    suite.refresh_from_db()
    assert suite.path == "evals/review.yaml"


def test_a_suite_of_another_workspace_is_not_found(client: Client, suite: Suite) -> None:
    elsewhere = factories.suite(factories.workspace("Other"), "evals/x.yaml")
    signed_in_as(client, suite.workspace, "owner")

    rename = reverse("suite_rename", args=[suite.workspace.slug, elsewhere.pk])
    delete = reverse("suite_delete", args=[suite.workspace.slug, elsewhere.pk])

    assert client.post(rename, {"path": "evals/y.yaml"}).status_code == 404
    assert client.post(delete).status_code == 404
    assert Suite.objects.filter(pk=elsewhere.pk).exists()


@pytest.mark.parametrize("name", ["suite_rename", "suite_delete"])
def test_suite_changes_need_the_csrf_token(suite: Suite, name: str) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(factories.member(suite.workspace, "owner"))

    response = client.post(url(name, suite), {"path": "evals/forged.yaml"})

    assert response.status_code == 403
    assert Suite.objects.filter(pk=suite.pk, path="evals/review.yaml").exists()

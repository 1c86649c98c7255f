"""A workspace's files: created, uploaded, edited and deleted, with the previews following."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from evals_app.models import Workspace, WorkspaceFile
from evals_app.services.profiles.workspace_formatter import WorkspaceFormatter
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def team(db: None) -> Workspace:
    """A workspace with a guideline file and an attachment."""
    workspace = factories.workspace("Team evals")
    factories.workspace_file(workspace, "prompts/review.instructions.md", "Be thorough.\n")
    factories.workspace_file(workspace, "fixtures/app.js", "while (false) {}\n")
    return workspace


def page(name: str, workspace: Workspace, file: WorkspaceFile | None = None) -> str:
    return reverse(name, args=[workspace.slug, file.pk] if file else [workspace.slug])


def stored(workspace: Workspace) -> dict[str, str]:
    return workspace.file_texts()


def upload(name: str, content: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="text/plain")


def test_anonymous_user_cannot_open_a_file(client: Client, team: Workspace) -> None:
    file = team.files.get(path="fixtures/app.js")

    response = client.get(page("file_edit", team, file))

    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


def test_new_file_page_has_a_labelled_path_and_text(signed_in: Client, team: Workspace) -> None:
    html = signed_in.get(page("file_create", team)).content.decode()

    assert '<label for="file-path">Path</label>' in html
    assert '<label for="file-text">Text</label>' in html


def test_new_file_page_takes_its_path_from_the_address(signed_in: Client, team: Workspace) -> None:
    html = signed_in.get(page("file_create", team), {"path": "judges/tone.md"}).content.decode()

    assert 'value="judges/tone.md"' in html


def test_creating_a_file_stores_it_and_goes_back_to_the_files(
    signed_in: Client, team: Workspace
) -> None:
    response = signed_in.post(
        page("file_create", team), {"path": "judges/tone.md", "text": "Grade the tone.\n"}
    )

    assert response.status_code == 302
    assert response["Location"] == "/w/team-evals/#files"
    assert stored(team)["judges/tone.md"] == "Grade the tone.\n"


def test_a_typed_file_keeps_its_whitespace_with_lf_line_ends(
    signed_in: Client, team: Workspace
) -> None:
    signed_in.post(
        page("file_create", team), {"path": "a.md", "text": "  indented\r\nnext\r\n\r\n"}
    )

    assert stored(team)["a.md"] == "  indented\nnext\n\n"


@pytest.mark.parametrize(
    ("path", "message"),
    [
        pytest.param("../secrets.txt", "cannot contain . or .. folders", id="parent folder"),
        pytest.param("/etc/passwd", "relative to the workspace root", id="absolute"),
        pytest.param("fixtures/app.js", "fixtures/app.js already exists", id="taken"),
        pytest.param("fixtures", "would clash with fixtures/app.js", id="a folder of a file"),
        pytest.param("a\x01b.md", "control characters", id="control character"),
    ],
)
def test_creating_a_file_at_a_bad_path_shows_why_on_the_form(
    signed_in: Client, team: Workspace, path: str, message: str
) -> None:
    response = signed_in.post(page("file_create", team), {"path": path, "text": "x"})

    assert response.status_code == 422
    assert message in response.content.decode()
    assert team.files.count() == 2


def test_a_file_cannot_take_the_path_of_an_eval_file(signed_in: Client, team: Workspace) -> None:
    factories.suite(team, "evals/review.yaml")

    response = signed_in.post(page("file_create", team), {"path": "evals/review.yaml", "text": ""})

    assert response.status_code == 422
    assert "evals/review.yaml already exists" in response.content.decode()


def test_typed_text_over_the_size_limit_is_refused(
    signed_in: Client, team: Workspace, settings: Any
) -> None:
    settings.AGENTV_MAX_UPLOAD_BYTES = 10

    response = signed_in.post(page("file_create", team), {"path": "big.md", "text": "é" * 6})

    assert response.status_code == 422
    assert "The file is 12 bytes; the limit is 10 bytes." in response.content.decode()


def test_edit_page_shows_the_files_path_and_text(signed_in: Client, team: Workspace) -> None:
    file = team.files.get(path="fixtures/app.js")

    html = signed_in.get(page("file_edit", team, file)).content.decode()

    assert "<h1>fixtures/app.js</h1>" in html
    assert re.search(r"<textarea[^>]*>\s*while \(false\) \{\}\n</textarea>", html)


@pytest.mark.parametrize(
    ("path", "kind"),
    [("prompts/review.instructions.md", "A guideline"), ("fixtures/app.js", "An attachment")],
)
def test_edit_page_says_whether_the_file_is_a_guideline(
    signed_in: Client, team: Workspace, path: str, kind: str
) -> None:
    html = signed_in.get(page("file_edit", team, team.files.get(path=path))).content.decode()

    assert kind in html


def test_editing_a_file_changes_its_text_and_path(signed_in: Client, team: Workspace) -> None:
    file = team.files.get(path="fixtures/app.js")

    response = signed_in.post(
        page("file_edit", team, file), {"path": "fixtures/loop.js", "text": "for (;;) {}\n"}
    )

    assert response.status_code == 302
    assert stored(team) == {
        "fixtures/loop.js": "for (;;) {}\n",
        "prompts/review.instructions.md": "Be thorough.\n",
    }


def test_a_file_can_be_saved_at_its_own_path(signed_in: Client, team: Workspace) -> None:
    file = team.files.get(path="fixtures/app.js")

    response = signed_in.post(
        page("file_edit", team, file), {"path": "fixtures/app.js", "text": ""}
    )

    assert response.status_code == 302
    assert stored(team)["fixtures/app.js"] == ""


def test_renaming_a_file_to_a_taken_path_is_refused(signed_in: Client, team: Workspace) -> None:
    file = team.files.get(path="fixtures/app.js")

    response = signed_in.post(
        page("file_edit", team, file),
        {"path": "prompts/review.instructions.md", "text": "changed"},
    )

    html = response.content.decode()
    assert response.status_code == 422
    assert "<h1>fixtures/app.js</h1>" in html
    assert "changed</textarea>" in html
    assert stored(team)["fixtures/app.js"] == "while (false) {}\n"


def test_a_file_of_another_workspace_is_not_found(signed_in: Client, team: Workspace) -> None:
    stranger = factories.workspace_file(factories.workspace("Other"), "x.md")

    assert signed_in.get(page("file_edit", team, stranger)).status_code == 404


def test_uploading_a_text_file_stores_it_under_its_name(signed_in: Client, team: Workspace) -> None:
    response = signed_in.post(
        page("file_upload", team), {"file": upload("notes.md", "Grüße\n".encode())}
    )

    assert response.status_code == 302
    assert response["Location"] == "/w/team-evals/#files"
    assert stored(team)["notes.md"] == "Grüße\n"


def test_an_upload_goes_to_the_path_given(signed_in: Client, team: Workspace) -> None:
    signed_in.post(
        page("file_upload", team),
        {"file": upload("notes.md", b"x"), "path": "judges/correctness.md"},
    )

    assert stored(team)["judges/correctness.md"] == "x"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param(b"\xff\xfe\x00binary", "notes.md is not UTF-8 text", id="not utf-8"),
        pytest.param(b"text\x00more", "contains NUL bytes", id="nul bytes"),
    ],
)
def test_an_upload_that_is_not_text_is_refused(
    signed_in: Client, team: Workspace, content: bytes, message: str
) -> None:
    response = signed_in.post(page("file_upload", team), {"file": upload("notes.md", content)})

    assert response.status_code == 422
    assert message in response.content.decode()
    assert "notes.md" not in stored(team)


def test_an_upload_over_the_size_limit_is_refused(
    signed_in: Client, team: Workspace, settings: Any
) -> None:
    settings.AGENTV_MAX_UPLOAD_BYTES = 1024

    response = signed_in.post(page("file_upload", team), {"file": upload("big.md", b"a" * 2048)})

    assert response.status_code == 422
    assert "The file is 2,048 bytes; the limit is 1,024 bytes." in response.content.decode()
    assert "big.md" not in stored(team)


def test_an_upload_does_not_overwrite_a_file_unless_asked(
    signed_in: Client, team: Workspace
) -> None:
    response = signed_in.post(
        page("file_upload", team), {"file": upload("x", b"new"), "path": "fixtures/app.js"}
    )

    assert response.status_code == 422
    assert "tick “Replace” to overwrite it" in response.content.decode()
    assert stored(team)["fixtures/app.js"] == "while (false) {}\n"


def test_an_upload_with_replace_overwrites_the_file(signed_in: Client, team: Workspace) -> None:
    response = signed_in.post(
        page("file_upload", team),
        {"file": upload("x", b"new"), "path": "fixtures/app.js", "replace": "on"},
    )

    assert response.status_code == 302
    assert stored(team)["fixtures/app.js"] == "new"


def test_an_upload_without_a_file_is_refused(signed_in: Client, team: Workspace) -> None:
    response = signed_in.post(page("file_upload", team), {"path": "a.md"})

    assert response.status_code == 422
    assert "This field is required." in response.content.decode()


def test_deleting_a_file_goes_back_to_the_files(signed_in: Client, team: Workspace) -> None:
    file = team.files.get(path="fixtures/app.js")

    response = signed_in.post(page("file_delete", team, file))

    assert response.status_code == 302
    assert response["Location"] == "/w/team-evals/#files"
    assert list(stored(team)) == ["prompts/review.instructions.md"]


def test_deleting_from_htmx_returns_the_list_of_files(signed_in: Client, team: Workspace) -> None:
    file = team.files.get(path="fixtures/app.js")

    response = signed_in.post(page("file_delete", team, file), HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert ">prompts/review.instructions.md</a>" in html
    assert ">fixtures/app.js</a>" not in html
    assert "Deleted fixtures/app.js." in html


def test_file_sizes_are_shown_in_bytes_of_utf8(signed_in: Client, team: Workspace) -> None:
    factories.workspace_file(team, "accents.md", "é" * 600)

    html = signed_in.get(reverse("workspace_detail", args=[team.slug])).content.decode()

    assert re.search(r">accents.md</a></th>\s*<td class=\"num\"[^>]*>1.2\xa0KB</td>", html)


@pytest.mark.parametrize(
    ("name", "method"),
    [("file_upload", "get"), ("file_delete", "get"), ("file_create", "put")],
)
def test_file_endpoints_refuse_other_methods(
    signed_in: Client, team: Workspace, name: str, method: str
) -> None:
    file = team.files.first() if name == "file_delete" else None

    response = getattr(signed_in, method)(page(name, team, file))

    assert response.status_code == 405


def test_file_changes_require_the_csrf_token(team: Workspace) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(factories.user(password=None))
    file = team.files.get(path="fixtures/app.js")

    response = client.post(page("file_delete", team, file))

    assert response.status_code == 403
    assert team.files.filter(pk=file.pk).exists()


def test_creating_a_referenced_file_clears_the_missing_file_warning(
    signed_in: Client, team: Workspace
) -> None:
    suite = factories.suite(team, "evals/review.yaml")
    case = factories.case(suite, "review-js")
    factories.attach_file(case, "../judges/tone.md")
    detail = reverse("suite_detail", args=[team.slug, suite.pk])
    assert "1 warning</summary>" in signed_in.get(detail).content.decode()

    signed_in.post(page("file_create", team), {"path": "judges/tone.md", "text": "Be kind."})

    assert "1 warning</summary>" not in signed_in.get(detail).content.decode()


def test_new_guideline_patterns_move_a_file_from_the_question_to_the_guidelines(
    signed_in: Client, team: Workspace
) -> None:
    suite = factories.suite(team, "evals/review.yaml")
    case = factories.case(suite, "review-js")
    factories.attach_file(case, "../fixtures/app.js")

    signed_in.post(reverse("workspace_patterns", args=[team.slug]), {"patterns": "fixtures/*.js"})

    team.refresh_from_db()
    formatted = WorkspaceFormatter(team).format(case, suite)
    assert "while (false)" in formatted.guidelines
    assert "while (false)" not in formatted.question

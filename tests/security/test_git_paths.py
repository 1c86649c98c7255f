"""One path rule, everywhere (docs/security.md): no door stores a path git cannot check out (M1), a
repository's symbolic link never becomes the app's text (M2), a commit's bad file names are
skipped by name, never a 500 or a suite (M3), and a .zip's invisible characters are refused
(L5). The fixture of tests/conftest.py runs `git fsck --strict` after each of these."""

from __future__ import annotations

import io
import os
import tempfile
import zipfile
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from evals_app.eval_files import paths
from evals_app.models import Job, Suite, Workspace, WorkspaceFile
from evals_app.services.imports.folders import import_workspace
from evals_app.services.repository.git import GitError
from evals_app.services.repository.publishing import publish_workspace
from tests import factories
from tests.git_repositories import Repository, linked_workspace, repository, suite_yaml

pytestmark = pytest.mark.django_db

PATH = "evals/suite.eval.yaml"
ORIGINAL = suite_yaml(("one", "First?"))
GIT_PATHS = [".git/config", ".GIT/config", "evals/.git/hooks/x", ".gitmodules"]
LINKED_PROMPT = """\
$schema: agentv-eval-v2
evalcases:
  - id: linked
    outcome: Reads the prompt.
    input_messages:
      - role: user
        content:
          - {type: file, value: prompts/link.md}
"""


@pytest.fixture
def repo(tmp_path: Path) -> Repository:
    made = repository(tmp_path / "repo")
    made.commit({PATH: ORIGINAL, "prompts/real.md": "The real prompt.\n"}, "evals")
    return made


@pytest.fixture
def workspace(repo: Repository) -> Workspace:
    return linked_workspace(repo)


@pytest.fixture
def owner(client: Client, workspace: Workspace) -> Client:
    client.force_login(factories.member(workspace, "owner"))
    return client


def commit_named(repo: Repository, names: list[bytes], content: str = ORIGINAL) -> str:
    """Commit files whose names are raw bytes (not UTF-8, newline, ESC), as git allows."""
    for name in names:
        target = os.path.join(os.fsencode(repo.path), name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as file:
            file.write(content.encode())
    return repo.commit(message="odd names")


def sync_lines(*arguments: str) -> list[str]:
    out = StringIO()
    call_command("sync_evals", "--workspace", "team", *arguments, stdout=out)
    return out.getvalue().splitlines()


# M1: `.git` paths


@pytest.mark.parametrize("path", GIT_PATHS)
def test_an_editor_cannot_create_a_file_at_a_git_path(
    owner: Client, workspace: Workspace, path: str
) -> None:
    response = owner.post(
        reverse("file_create", args=[workspace.slug]), {"path": path, "text": "[core]\n"}
    )

    assert response.status_code == 422
    assert paths.GIT_FOLDER in response.content.decode()
    assert not workspace.files.filter(path=path).exists()


@pytest.mark.parametrize("path", GIT_PATHS)
def test_an_editor_cannot_upload_a_file_to_a_git_path(
    owner: Client, workspace: Workspace, path: str
) -> None:
    upload = SimpleUploadedFile("config", b"[core]\n", content_type="text/plain")

    response = owner.post(
        reverse("file_upload", args=[workspace.slug]), {"path": path, "file": upload}
    )

    assert response.status_code == 422
    assert not workspace.files.filter(path=path).exists()


@pytest.mark.parametrize("folder", [".git", ".GIT", "evals/.git/hooks", "git~1"])
def test_an_editor_cannot_add_or_move_an_eval_file_into_a_git_folder(
    owner: Client, workspace: Workspace, folder: str
) -> None:
    path = f"{folder}/x.yaml"
    suite = workspace.suites.get()

    added = owner.post(reverse("suite_create", args=[workspace.slug]), {"path": path})
    moved = owner.post(reverse("suite_rename", args=[workspace.slug, suite.pk]), {"path": path})

    assert added.status_code == moved.status_code == 422
    assert paths.GIT_FOLDER in added.content.decode()
    assert paths.GIT_FOLDER in moved.content.decode()
    assert list(Suite.objects.values_list("path", flat=True)) == [PATH]


@pytest.mark.parametrize("path", GIT_PATHS)
def test_a_file_stored_at_a_git_path_is_never_published(
    repo: Repository, workspace: Workspace, path: str
) -> None:
    """A row stored before the rule existed meets write_tree's own check."""
    WorkspaceFile.objects.create(workspace=workspace, path=path, text="[core]\n")
    head = repo.head("main")

    with pytest.raises(GitError, match="not written to git"):
        publish_workspace(workspace, "main")

    assert repo.head("main") == head


# M2: symbolic links


def test_a_linked_import_skips_a_symbolic_link_a_case_refers_to(repo: Repository) -> None:
    (repo.path / "prompts" / "link.md").symlink_to("real.md")
    repo.commit({"evals/linked.yaml": LINKED_PROMPT})

    summary = import_workspace(repo.path, "team", link=True)

    assert ("prompts/link.md", "symbolic link: not read") in summary.skipped
    assert not summary.workspace.files.filter(path="prompts/link.md").exists()


def test_a_sync_names_a_symbolic_link_it_does_not_read(
    repo: Repository, workspace: Workspace
) -> None:
    (repo.path / "prompts" / "link.md").symlink_to("real.md")
    repo.commit()

    assert "skipped: prompts/link.md: symbolic link: not read" in sync_lines()
    assert not workspace.files.filter(path="prompts/link.md").exists()


def test_publishing_never_turns_a_symbolic_link_into_app_text(
    owner: Client, repo: Repository, workspace: Workspace
) -> None:
    (repo.path / "prompts" / "link.md").symlink_to("real.md")
    repo.commit()
    sync_lines()
    owner.post(
        reverse("file_create", args=[workspace.slug]),
        {"path": "prompts/link.md", "text": "App text.\n"},
    )
    head = repo.head("main")

    owner.post(reverse("repository_publish", args=[workspace.slug]), {"branch": "main"})

    job = Job.objects.get(kind=Job.Kind.PUBLISH)
    assert job.state == Job.State.FAILED
    assert "prompts/link.md is a symbolic link" in job.error
    assert repo.head("main") == head
    assert repo.mode("main", "prompts/link.md") == "120000"
    assert repo.show("main", "prompts/link.md") == "real.md"


# M3: a commit's file names


@pytest.fixture
def odd_names(repo: Repository, workspace: Workspace) -> Repository:
    commit_named(repo, [b"evals/bad\xff.eval.yaml", b"evals/line\nbreak.eval.yaml"])
    commit_named(repo, [b"evals/escape\x1b[31m.eval.yaml", b"prompts/bad\xfe.md"])
    return repo


EXPECTED_SKIPS = [
    f"evals/bad\\xff.eval.yaml: {paths.NOT_UTF8}",
    f"evals/escape\\x1b[31m.eval.yaml: {paths.INVISIBLE}",
    f"evals/line\\x0abreak.eval.yaml: {paths.INVISIBLE}",
    f"prompts/bad\\xfe.md: {paths.NOT_UTF8}",
]


def test_check_names_each_file_with_a_bad_name_and_goes_on(
    owner: Client, odd_names: Repository, workspace: Workspace
) -> None:
    response = owner.get(reverse("repository_changes", args=[workspace.slug]))

    html = response.content.decode()
    assert response.status_code == 200
    for skip in EXPECTED_SKIPS:
        path, _, why = skip.partition(": ")
        assert f"Skipped <code>{path}</code>: {why}" in html


def test_apply_skips_files_with_bad_names_and_stores_no_suite_for_them(
    owner: Client, odd_names: Repository, workspace: Workspace
) -> None:
    owner.post(reverse("repository_check", args=[workspace.slug]))
    checked = Job.objects.get(kind=Job.Kind.CHECK).result["apply_commit"]
    owner.post(reverse("repository_sync", args=[workspace.slug]), {"commit": checked})

    job = Job.objects.get(kind=Job.Kind.SYNC)
    assert job.state == Job.State.DONE, job.error
    assert [line for line in job.result["lines"] if line.startswith("Skipped ")] == [
        f"Skipped {skip}" for skip in EXPECTED_SKIPS
    ]
    assert list(Suite.objects.values_list("path", flat=True)) == [PATH]
    assert Workspace.objects.get(pk=workspace.pk).base_commit == odd_names.head()


def test_sync_evals_reports_files_with_bad_names_and_syncs_the_rest(
    odd_names: Repository, workspace: Workspace
) -> None:
    odd_names.commit({"evals/more.eval.yaml": suite_yaml(("two", "Second?"))})

    lines = sync_lines()

    assert [line for line in lines if line.startswith("skipped: ")] == [
        f"skipped: {skip}" for skip in EXPECTED_SKIPS
    ]
    assert set(Suite.objects.values_list("path", flat=True)) == {PATH, "evals/more.eval.yaml"}


def test_a_tree_path_leaving_the_folder_is_never_a_suite(
    repo: Repository, workspace: Workspace
) -> None:
    repo.commit_raw({b"evals/../../../../tmp/x.yaml": suite_yaml(("x", "Escaped?")).encode()})

    lines = sync_lines()

    assert f"skipped: evals/../../../../tmp/x.yaml: {paths.DOTS}" in lines
    assert list(Suite.objects.values_list("path", flat=True)) == [PATH]
    call_command("export_evals", "--out", str(repo.path.parent / "out"), stdout=StringIO())


def test_a_folder_import_skips_a_file_with_a_bad_name(tmp_path: Path) -> None:
    root = tmp_path / "folder"
    (root / "evals").mkdir(parents=True)
    (root / "evals" / "suite.eval.yaml").write_text(ORIGINAL)
    with open(os.path.join(os.fsencode(root), b"evals/bad\xff\x1b.eval.yaml"), "wb") as file:
        file.write(ORIGINAL.encode())

    summary = import_workspace(root, "folder")

    assert ("evals/bad\\xff\\x1b.eval.yaml", paths.NOT_UTF8) in summary.skipped
    assert list(Suite.objects.values_list("path", flat=True)) == ["evals/suite.eval.yaml"]


# L5: a .zip's paths


def test_a_zip_entry_with_a_right_to_left_override_is_refused_by_name(
    client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    client.force_login(factories.user("alice", password=None))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("repo/evals/a.eval.yaml", ORIGINAL)
        archive.writestr("repo/evals/cases\u202elmy.eval.yaml", ORIGINAL)
    upload: Any = SimpleUploadedFile("repo.zip", buffer.getvalue(), "application/zip")

    response = client.post(
        reverse("workspace_import"), {"archive": upload, "name": "Bidi"}, follow=True
    )

    assert Job.objects.get().state == Job.State.FAILED
    assert f"repo/evals/cases\\u202elmy.eval.yaml: {paths.INVISIBLE}" in (response.content.decode())
    assert "\u202e" not in response.content.decode()
    assert not Workspace.objects.filter(name="Bidi").exists()

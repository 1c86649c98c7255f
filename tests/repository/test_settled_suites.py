"""A check and a publish read only what changed: a suite whose file, rows and read files are as
the last import, sync or publish left them is known unchanged without being read, and
anything that changed any of them is read and compared as before (docs/sync.md, "What a check
and a publish read")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evals_app.models import Case, Suite, Workspace
from evals_app.services.cases.list_changes import delete_case, move_case
from evals_app.services.repository import git as git_repository
from evals_app.services.repository import sync
from evals_app.services.repository.publishing import publish_workspace
from evals_app.services.repository.sync import sync_repository
from tests.factories import edit_input
from tests.git_repositories import Repository, case_yaml, linked_workspace, repository

pytestmark = pytest.mark.django_db

READING = "evals/reading.eval.yaml"
PLAIN = "evals/plain.eval.yaml"
READS = (
    "description: Reads a file\ntests:\n  - id: reads\n    input:\n"
    "      - role: user\n        content:\n          - type: file\n"
    "            value: notes.md\n"
)
PLAIN_TEXT = "description: Plain\ntests:\n" + case_yaml("one", "First?") + case_yaml("two", "Two?")


@pytest.fixture
def repo(tmp_path: Path) -> Repository:
    made = repository(tmp_path / "repo")
    made.commit({READING: READS, PLAIN: PLAIN_TEXT, "notes.md": "Notes at the top.\n"})
    return made


@pytest.fixture
def workspace(repo: Repository) -> Workspace:
    return linked_workspace(repo)


@pytest.fixture
def blobs_read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the blobs git is asked for from now on."""
    asked: list[str] = []
    read_blobs = git_repository.read_blobs

    def spying(repository: Path, object_ids: Any, **options: Any) -> dict[str, bytes]:
        wanted = list(object_ids)
        asked.extend(wanted)
        return read_blobs(repository, wanted, **options)

    monkeypatch.setattr(git_repository, "read_blobs", spying)
    return asked


def blob_at(repo: Repository, path: str) -> str:
    return repo.git("rev-parse", f"HEAD:{path}").strip()


def test_an_import_keeps_each_suites_base_blob_and_stamp(
    repo: Repository, workspace: Workspace
) -> None:
    suite = Suite.objects.get(workspace=workspace, path=PLAIN)

    assert suite.base_blob == blob_at(repo, PLAIN)
    assert suite.settled_stamp


def test_an_import_keeps_every_path_the_cases_tried_with_the_blob_found(
    repo: Repository, workspace: Workspace
) -> None:
    suite = Suite.objects.get(workspace=workspace, path=READING)

    assert suite.base_reads == {
        "profile": suite.profile,
        "blob": blob_at(repo, READING),
        # `notes.md` is looked for beside the eval file first, where there is none.
        "files": {"evals/notes.md": None, "notes.md": blob_at(repo, "notes.md")},
    }


def test_a_check_with_nothing_changed_reads_no_eval_file(
    repo: Repository, workspace: Workspace, blobs_read: list[str]
) -> None:
    _, report = sync_repository(workspace, dry_run=True)

    assert not report.changes_anything
    assert report.counts["unchanged"] == 3
    assert blob_at(repo, PLAIN) not in blobs_read
    assert blob_at(repo, READING) not in blobs_read


def test_a_check_reads_the_eval_file_a_teammate_changed_and_only_it(
    repo: Repository, workspace: Workspace, blobs_read: list[str]
) -> None:
    repo.commit({PLAIN: PLAIN_TEXT.replace("Two?", "Second?")})

    _, report = sync_repository(workspace, dry_run=True)

    assert [(o.kind, o.case_id) for o in report.outcomes] == [("updated", "two")]
    assert report.counts["unchanged"] == 2
    assert blob_at(repo, READING) not in blobs_read


def test_a_file_the_cases_read_changed_upstream_is_still_brought_in(
    repo: Repository, workspace: Workspace
) -> None:
    repo.commit({"notes.md": "Notes, reworded.\n"})

    _, report = sync_repository(workspace, dry_run=True)

    assert report.files_changed == ["notes.md"]


def test_a_file_added_nearer_than_the_one_the_cases_read_is_brought_in(
    repo: Repository, workspace: Workspace
) -> None:
    # The file block's `notes.md` is looked for in the eval file's folder first.
    repo.commit({"evals/notes.md": "Notes beside the eval file.\n"})

    _, report = sync_repository(workspace, dry_run=True)

    assert report.files_changed == ["evals/notes.md"]


def test_a_case_edited_here_and_upstream_is_a_conflict(
    repo: Repository, workspace: Workspace
) -> None:
    edit_input("one", "First, as edited here?")
    repo.commit({PLAIN: PLAIN_TEXT.replace("First?", "First, as edited upstream?")})

    _, report = sync_repository(workspace, dry_run=True)

    assert [(o.kind, o.case_id) for o in report.outcomes] == [("conflict", "one")]


def test_a_case_moved_here_is_published(repo: Repository, workspace: Workspace) -> None:
    move_case(Case.objects.get(case_id="two"), "up")

    published = publish_workspace(workspace, "moved")

    assert published.commit is not None
    text = repo.show("moved", PLAIN)
    assert text.index("id: two") < text.index("id: one")


def test_a_case_deleted_here_is_published(repo: Repository, workspace: Workspace) -> None:
    delete_case(Case.objects.get(case_id="two"))

    published = publish_workspace(workspace, "deleted")

    assert [(c.case_id, c.change) for c in published.deleted] == [("two", "deleted")]
    assert "id: two" not in repo.show("deleted", PLAIN)


def test_a_publish_writes_only_the_suite_edited_and_settles_it(
    repo: Repository, workspace: Workspace
) -> None:
    edit_input("one", "First, as edited here?")

    published = publish_workspace(workspace, "edited")

    changed = repo.git("diff", "--name-only", "HEAD", "edited").split()
    assert changed == [PLAIN]
    suite = Suite.objects.get(workspace=workspace, path=PLAIN)
    assert suite.base_blob == repo.git("rev-parse", f"{published.commit}:{PLAIN}").strip()
    _, report = sync_repository(Workspace.objects.get(pk=workspace.pk), dry_run=True)
    assert not report.changes_anything


def test_a_suite_edited_while_the_commit_is_read_is_read_again(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    read_commit = sync.read_commit
    calls: list[str] = []

    def deleting_meanwhile(*arguments: Any, **options: Any) -> Any:
        found = read_commit(*arguments, **options)
        if not calls:
            delete_case(Case.objects.get(case_id="two"))
        calls.append("read")
        return found

    monkeypatch.setattr(sync, "read_commit", deleting_meanwhile)

    _, report = sync_repository(workspace, dry_run=True)

    # The rule brings back a case deleted here but not yet published (docs/sync.md).
    assert [(o.kind, o.case_id) for o in report.outcomes] == [("added", "two")]
    assert calls == ["read", "read"]

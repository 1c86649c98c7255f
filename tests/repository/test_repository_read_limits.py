"""Reading a commit is bounded (docs/sync.md, "Limits"): a file over the limit for one file is
skipped and reported, and a sync whose files add up to more than the limit is refused before
any is read."""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from evals_app.models import Case, Suite, Workspace
from evals_app.services.repository import git as git_repository
from evals_app.services.repository.sync import RepositoryTooLarge, sync_repository
from tests.git_repositories import Repository, linked_workspace, repository, suite_yaml

pytestmark = pytest.mark.django_db

PATH = "evals/suite.eval.yaml"
BIG = "evals/big.eval.yaml"


@pytest.fixture
def repo(tmp_path: Path) -> Repository:
    made = repository(tmp_path / "repo")
    made.commit({PATH: suite_yaml(("one", "First?")), BIG: suite_yaml(("big", "Big?"))})
    return made


@pytest.fixture
def workspace(repo: Repository) -> Workspace:
    return linked_workspace(repo)


def padded(*cases: tuple[str, str], size: int) -> str:
    text = suite_yaml(*cases)
    return text + "#" * (size - len(text) - 1) + "\n"


def test_a_file_over_the_limit_for_one_file_is_skipped_with_its_size_and_the_limit(
    repo: Repository, workspace: Workspace, settings: Any
) -> None:
    settings.AGENTV_REPOSITORY_FILE_MAX_BYTES = 5_000
    repo.commit(
        {
            PATH: suite_yaml(("one", "First, newer?")),
            BIG: padded(("big", "Big, newer?"), size=6_000),
        }
    )
    out = StringIO()

    call_command("sync_evals", "--workspace", "team", stdout=out)

    assert f"skipped: {BIG}: 6000 bytes, over the limit of 5000 bytes per file" in out.getvalue()
    assert Case.objects.get(case_id="one").document["input"] == "First, newer?"
    # Not read is not removed: the suite and its case stay as they were.
    assert Suite.objects.filter(workspace=workspace, path=BIG).exists()
    assert Case.objects.get(case_id="big").document["input"] == "Big?"


def test_the_check_page_lists_a_skipped_file(
    repo: Repository, workspace: Workspace, settings: Any, admin_client: Any
) -> None:
    settings.AGENTV_REPOSITORY_FILE_MAX_BYTES = 5_000
    repo.commit({BIG: padded(("big", "Big?"), size=6_000)})

    response = admin_client.get(reverse("repository_changes", args=[workspace.slug]))

    assert response.status_code == 200
    assert f"Skipped <code>{BIG}</code>: 6000 bytes, over the limit of 5000 bytes per file" in (
        response.content.decode()
    )


def test_a_sync_over_the_total_limit_is_refused_before_any_file_is_read(
    repo: Repository, workspace: Workspace, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.AGENTV_REPOSITORY_READ_MAX_BYTES = 10_000
    base = workspace.base_commit
    repo.commit(
        {
            PATH: padded(("one", "First, newer?"), size=6_000),
            BIG: padded(("big", "Big, newer?"), size=6_000),
        }
    )
    read: list[object] = []
    monkeypatch.setattr(git_repository, "read_blobs", lambda *a, **k: read.append(a))

    with pytest.raises(CommandError, match="add up to 12000 bytes, more than the limit of 10000"):
        call_command("sync_evals", "--workspace", "team", stdout=StringIO())

    assert read == []
    assert Workspace.objects.get(pk=workspace.pk).base_commit == base


def test_files_read_later_count_toward_the_total(
    repo: Repository, workspace: Workspace, settings: Any
) -> None:
    repo.commit(
        {
            PATH: "description: refers\ntests:\n  - id: one\n    input:\n"
            "      - role: user\n        content:\n          - type: file\n"
            "            value: ./notes.md\n",
            "evals/notes.md": "n" * 6_000,
        }
    )
    settings.AGENTV_REPOSITORY_READ_MAX_BYTES = 1_000 + sum(
        e.size or 0
        for e in git_repository.list_files(repo.path, repo.head(), "")
        if e.name.endswith(".yaml")
    )

    with pytest.raises(RepositoryTooLarge, match="add up to more than the limit of"):
        sync_repository(workspace)


def test_suites_unchanged_since_the_last_sync_do_not_count_toward_the_total(
    tmp_path: Path, settings: Any
) -> None:
    repo = repository(tmp_path / "large")
    repo.commit({PATH: suite_yaml(("one", "First?")), BIG: padded(("big", "Big?"), size=6_000)})
    workspace = linked_workspace(repo)
    settings.AGENTV_REPOSITORY_READ_MAX_BYTES = 5_000
    repo.commit({PATH: suite_yaml(("one", "First, newer?"))})

    _, report = sync_repository(workspace)

    assert report.counts["updated"] == 1
    assert Case.objects.get(case_id="one").document["input"] == "First, newer?"

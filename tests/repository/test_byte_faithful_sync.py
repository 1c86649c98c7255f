"""A sync keeps the repository's text of each file it brings in, so that what is written next
starts from it (docs/sync.md, "What is kept byte for byte")."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals_app.models import Case, Suite, Workspace
from evals_app.services.cases.editing import save_case
from evals_app.services.exports.exporting import export_workspace
from evals_app.services.repository.conflicts import keep_mine
from evals_app.services.repository.publishing import publish_workspace
from evals_app.services.repository.sync import sync_repository
from tests.git_repositories import Repository, linked_workspace, repository

pytestmark = pytest.mark.django_db

PATH = "evals/suite.eval.yaml"
ORIGINAL = (
    "# Why these cases exist\n"
    "tests:\n"
    "  - id: one   # the first\n"
    "    input: 'First?'\n"
    "\n"
    "  - id: two\n"
    '    input: "Second?"\n'
)
CONFIG = "\ufeff$schema: agentv-config-v2\r\nguideline_patterns: ['**/*.md']\r\n"


@pytest.fixture
def repo(tmp_path: Path) -> Repository:
    made = repository(tmp_path / "repo")
    write_bytes(made, {PATH: ORIGINAL, ".agentv/config.yaml": CONFIG})
    made.commit(message="evals")
    return made


@pytest.fixture
def workspace(repo: Repository) -> Workspace:
    return linked_workspace(repo)


def write_bytes(repo: Repository, files: dict[str, str]) -> None:
    """Write each text as its UTF-8 bytes (no newline translation)."""
    for relative, text in files.items():
        target = repo.path / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))


def commit(repo: Repository, files: dict[str, str]) -> str:
    write_bytes(repo, files)
    return repo.commit(message="upstream")


def suite_of(workspace: Workspace) -> Suite:
    return Suite.objects.get(workspace=workspace, path=PATH)


def exported(workspace: Workspace, out: Path, path: str) -> str:
    return (export_workspace(workspace, out, jobs=1).folder / path).read_bytes().decode()


def test_import_keeps_the_text_as_read_and_as_the_base(workspace: Workspace) -> None:
    suite = suite_of(workspace)

    assert suite.source_text == suite.base_source_text == ORIGINAL


def test_a_file_changed_upstream_brings_its_text_as_the_new_text_and_base(
    repo: Repository, workspace: Workspace, tmp_path: Path
) -> None:
    upstream = ORIGINAL.replace("'First?'", "'First, reworded?'  # changed upstream")
    commit(repo, {PATH: upstream})

    sync_repository(workspace)

    suite = suite_of(workspace)
    assert suite.source_text == suite.base_source_text == upstream
    assert exported(workspace, tmp_path, PATH) == upstream


def test_a_suite_added_upstream_keeps_its_text(
    repo: Repository, workspace: Workspace, tmp_path: Path
) -> None:
    added = "tests:\r\n  - id: new   # odd spacing\r\n    input:   Hello?"
    commit(repo, {"evals/added.eval.yaml": added})

    sync_repository(workspace)

    assert exported(workspace, tmp_path, "evals/added.eval.yaml") == added


def test_a_config_changed_upstream_keeps_its_bom_and_line_endings(
    repo: Repository, workspace: Workspace, tmp_path: Path
) -> None:
    changed = CONFIG.replace("'**/*.md'", "'docs/**/*.md'")
    commit(repo, {".agentv/config.yaml": changed})

    sync_repository(workspace)

    assert exported(workspace, tmp_path, ".agentv/config.yaml") == changed


def test_a_conflict_leaves_no_base_text_and_the_next_publish_changes_only_that_case(
    repo: Repository, workspace: Workspace
) -> None:
    case = Case.objects.get(suite__workspace=workspace, case_id="two")
    save_case(case, {**case.document, "input": "Second, ours?"}, case.version, None)
    upstream = ORIGINAL.replace('"Second?"', '"Second, theirs?"').replace(
        "# Why", "# Upstream note\n# Why"
    )
    upstream_commit = commit(repo, {PATH: upstream})

    _, report = sync_repository(workspace)

    assert [outcome.case_id for outcome in report.conflicts] == ["two"]
    suite = suite_of(workspace)
    assert (suite.source_text, suite.base_source_text) == (upstream, None)
    keep_mine(Case.objects.get(pk=case.pk), None)
    published = publish_workspace(Workspace.objects.get(pk=workspace.pk), "main").commit
    assert published is not None
    diff = repo.git("diff", "-U0", upstream_commit, published)
    changed = [line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in "+++---"]
    assert changed == ['-    input: "Second, theirs?"', '+    input: "Second, ours?"']


def test_a_file_unchanged_upstream_keeps_the_text_the_suite_is_written_from(
    repo: Repository, workspace: Workspace
) -> None:
    rewritten = ORIGINAL.replace("# Why", "# Rewritten here\n# Why")
    Suite.objects.filter(workspace=workspace, path=PATH).update(source_text=rewritten)
    commit(repo, {"README.md": "unrelated\n"})

    sync_repository(workspace)

    assert suite_of(workspace).source_text == rewritten

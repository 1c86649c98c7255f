"""A publish and saves at once: git runs outside the write transaction, so a save does not wait
for it (SQLite's IMMEDIATE transactions take the write lock when they start); a save of the
published workspace that lands while git runs is caught, and the publish is worked out again
(docs/sync.md, "Publishing")."""

from __future__ import annotations

import copy
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from evals_app.models import Case, Workspace
from evals_app.services.cases.editing import save_case
from evals_app.services.repository import git as git_repository
from evals_app.services.repository.publishing import PublishResult, publish_workspace
from tests import factories
from tests.concurrency.threads import run_together
from tests.git_repositories import Repository, linked_workspace, repository, suite_yaml

pytestmark = pytest.mark.django_db(transaction=True)

PATH = "evals/suite.eval.yaml"
GIT_SECONDS = 3.0  # how long the slowed git work of the publish takes
WAIT = 30.0


@pytest.fixture
def repo(tmp_path: Path) -> Repository:
    made = repository(tmp_path / "repo")
    made.commit({PATH: suite_yaml(("one", "First?"), ("two", "Second?"))}, "evals")
    return made


def edited(case: Case, question: str) -> Case:
    document = copy.deepcopy(case.document)
    document["input"] = question
    return save_case(Case.objects.get(pk=case.pk), document, case.version)


def slow_git(monkeypatch: pytest.MonkeyPatch, during: threading.Event) -> None:
    """Make writing the publish's trees take GIT_SECONDS, announcing when it starts."""
    write_tree = git_repository.write_tree

    def slow(*arguments: Any) -> str:
        if not during.is_set():
            during.set()
            time.sleep(GIT_SECONDS)
        return write_tree(*arguments)

    monkeypatch.setattr(git_repository, "write_tree", slow)


def test_a_save_in_another_workspace_does_not_wait_for_a_publish(
    repo: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = linked_workspace(repo)
    edited(Case.objects.get(case_id="two"), "Second, better?")
    other = factories.case(factories.suite(factories.workspace("Other team")), "other")
    during = threading.Event()
    slow_git(monkeypatch, during)

    def publish() -> PublishResult:
        return publish_workspace(Workspace.objects.get(pk=workspace.pk), "main")

    def save_elsewhere() -> float:
        assert during.wait(WAIT)
        started = time.monotonic()
        edited(Case.objects.get(pk=other.pk), "Saved during the publish?")
        return time.monotonic() - started

    published, waited = run_together([publish, save_elsewhere])

    assert isinstance(published, PublishResult), published
    assert repo.head("main") == published.commit
    assert isinstance(waited, float), waited
    assert waited < GIT_SECONDS / 3


def test_a_save_of_the_workspace_while_git_runs_is_published_too(
    repo: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = linked_workspace(repo)
    base = repo.head()
    edited(Case.objects.get(case_id="two"), "Second, better?")
    during = threading.Event()
    slow_git(monkeypatch, during)

    def publish() -> PublishResult:
        return publish_workspace(Workspace.objects.get(pk=workspace.pk), "main")

    def save_meanwhile() -> Case:
        assert during.wait(WAIT)
        return edited(Case.objects.get(case_id="one"), "First, saved meanwhile?")

    published, saved = run_together([publish, save_meanwhile])

    assert isinstance(published, PublishResult), published
    assert isinstance(saved, Case), saved
    assert repo.git("rev-parse", f"{published.commit}^").strip() == base
    text = repo.show(published.commit, PATH)
    assert "First, saved meanwhile?" in text and "Second, better?" in text
    one = Case.objects.get(case_id="one")
    assert one.base_document == one.document

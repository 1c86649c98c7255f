"""The worker the tests of jobs run against."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.git_repositories import Repository, repository, suite_yaml
from tests.workers import Worker


@pytest.fixture
def repo(tmp_path: Path) -> Repository:
    """A repository with one eval file of one case, "one"."""
    made = repository(tmp_path / "repo")
    made.commit({"evals/suite.eval.yaml": suite_yaml(("one", "First?"))}, "evals")
    return made


@pytest.fixture
def worker(transactional_db: None, tasks_in_the_database: Path) -> Iterator[Worker]:
    """A running worker; stopped after the test."""
    running = Worker(tasks_in_the_database)
    running.start()
    yield running
    running.stop()

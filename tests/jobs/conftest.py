"""The worker the tests of jobs run against."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.workers import Worker


@pytest.fixture
def worker(transactional_db: None, tasks_in_the_database: Path) -> Iterator[Worker]:
    """A running worker; stopped after the test."""
    running = Worker(tasks_in_the_database)
    running.start()
    yield running
    running.stop()

"""Fixtures shared by every test layer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client
from hypothesis import settings as hypothesis_settings

from tests.factories import admin
from tests.git_repositories import MADE

# Properties are about behaviour, not speed: an example that runs slowly on a busy 2-core
# machine is no failure (speed is measured by `make bench`).
hypothesis_settings.register_profile("agentv-web", deadline=None)
hypothesis_settings.load_profile("agentv-web")

REPOSITORY = Path(__file__).resolve().parent.parent
EXAMPLES = REPOSITORY / "examples"


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Give SQLite a test database file instead of memory, whichever tests run first.

    Threads (the concurrency tests, the browser tests' live server) then each get their own
    connection to one database, as in production; an in-memory database is shared through one
    connection or SQLite's shared cache, which fails with "database table is locked".
    """
    database = django_settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        folder = tmp_path_factory.mktemp("database")
        database.setdefault("TEST", {})["NAME"] = str(folder / "test.sqlite3")


@pytest.fixture
def example_root() -> Path:
    """The example workspace shipped in the repository."""
    return EXAMPLES


@pytest.fixture
def signed_in(client: Client, db: None) -> Client:
    """The test client, logged in as a superuser, who may do anything in any workspace (roles
    are tested on their own, in test_permissions.py)."""
    client.force_login(admin())
    return client


@pytest.fixture(autouse=True)
def jobs_run_at_once(settings: Any, tmp_path: Path) -> None:
    """A job asked for in a test runs at once, in the test's process and transaction (django-
    tasks' immediate backend), keeping its files in the test's folder; the tests of the worker
    itself (tests/jobs/) run a real one."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    settings.AGENTV_JOB_FILES_DIR = tmp_path / "jobs"


@pytest.fixture
def tasks_in_the_database(settings: Any, tmp_path: Path) -> Path:
    """Jobs are queued in the database, for a worker process; returns the job files folder."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.AGENTV_JOB_FILES_DIR = tmp_path / "jobs"
    return tmp_path / "jobs"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """Tests create many accounts; the production hasher is deliberately slow."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def repositories_pass_git_fsck() -> Iterator[None]:
    """Every repository a test made is clean for `git fsck --strict` after it: every
    publish in the suite is checked. A test that crafts a broken tree on purpose says so
    (`Repository.commit_raw`)."""
    before = len(MADE)
    yield
    made = MADE[before:]
    del MADE[before:]
    for repository in made:
        if repository.broken_on_purpose or not (repository.path / ".git").exists():
            continue
        problems = repository.fsck_problems()
        assert not problems, f"git fsck --strict in {repository.path}:\n{problems}"

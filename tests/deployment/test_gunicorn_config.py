"""gunicorn.conf.py: workers start with Django loaded, out of the garbage collector's reach and
with no database connection of the master's, and serve pages as docs/deployment.md runs
them."""

from __future__ import annotations

import gc
import http.client
import runpy
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from tests.conftest import REPOSITORY
from tests.security.test_production_settings import production_environment, run_python

CONFIG = runpy.run_path(str(REPOSITORY / "gunicorn.conf.py"))


@pytest.mark.django_db(transaction=True)  # the hook closes the connection: no test transaction
def test_forking_a_worker_freezes_what_is_loaded_and_closes_database_connections() -> None:
    connection.ensure_connection()
    try:
        CONFIG["pre_fork"](None, None)

        assert gc.get_freeze_count() > 0
        assert connection.connection is None
    finally:
        gc.unfreeze()


def test_django_is_loaded_once_before_the_workers_fork() -> None:
    assert CONFIG["preload_app"] is True


@pytest.fixture
def served(tmp_path: Path) -> Iterator[int]:
    """gunicorn started in the repository as docs/deployment.md starts it; its port."""
    environment = production_environment(tmp_path, DJANGO_SECURE_SSL_REDIRECT="false")
    environment["DJANGO_ALLOWED_HOSTS"] = "127.0.0.1"
    migrated = run_python(["manage.py", "migrate", "--noinput"], environment)
    assert migrated.returncode == 0, migrated.stderr
    assert run_python(["manage.py", "collectstatic", "--noinput"], environment).returncode == 0
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "agentv_web.wsgi", "--workers", "2"]
        + ["--bind", f"127.0.0.1:{port}"],
        cwd=REPOSITORY,
        env=environment,
        stderr=subprocess.PIPE,
    )
    try:
        yield port
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=30)
        assert b"Traceback" not in errors, errors.decode()


def get(port: int, path: str, timeout: float = 60) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            return response
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)  # gunicorn is still starting: its workers load Django first
        finally:
            connection.close()


def test_gunicorn_started_as_the_readme_says_serves_pages(served: int) -> None:
    statuses = [get(served, "/login/").status for _ in range(20)]

    assert statuses == [200] * 20

"""`make run` serves on the port given (`PORT=...`), and `local_setup` prints the URL actually
served (README, docs/user-guide.md)."""

from __future__ import annotations

import subprocess
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from pytest_django import Settings

from tests.conftest import REPOSITORY

pytestmark = pytest.mark.django_db


def test_make_run_serves_and_prints_the_port_it_is_given() -> None:
    plan = subprocess.run(
        ["make", "--dry-run", "--always-make", "run", "PORT=8123"],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        check=True,
    ).stdout

    assert "local_setup --address 127.0.0.1:8123" in plan
    assert "runserver 127.0.0.1:8123" in plan


def test_make_run_serves_on_8000_by_default() -> None:
    plan = subprocess.run(
        ["make", "--dry-run", "--always-make", "run"],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        check=True,
    ).stdout

    assert "runserver 127.0.0.1:8000" in plan


def test_make_run_lets_its_admin_link_local_repositories_under_a_folder_it_names(
    settings: Settings, tmp_path: Path
) -> None:
    plan = subprocess.run(
        ["make", "--dry-run", "--always-make", "run"],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    settings.DATA_DIR = tmp_path

    call_command("local_setup", "--address", "127.0.0.1:8000", stdout=StringIO())

    root = f"{REPOSITORY}/data/local-repositories"
    assert f'AGENTV_LOCAL_REPOSITORIES_ROOT="${{AGENTV_LOCAL_REPOSITORIES_ROOT:-{root}}}"' in plan
    assert plan.index("AGENTV_LOCAL_REPOSITORIES_ROOT") < plan.index("db_worker")
    assert get_user_model().objects.get(username="admin").is_staff  # file:// is for staff


def test_local_setup_prints_the_url_of_the_address_given(
    settings: Settings, tmp_path: Path
) -> None:
    settings.DATA_DIR = tmp_path
    output = StringIO()

    call_command("local_setup", "--address", "127.0.0.1:8123", stdout=output)

    assert "Log in at http://127.0.0.1:8123/ as 'admin'" in output.getvalue()


@pytest.mark.parametrize("address", ["8123", "127.0.0.1:", "127.0.0.1:http", "127.0.0.1:70000"])
def test_local_setup_refuses_an_address_that_is_not_host_and_port(
    settings: Settings, tmp_path: Path, address: str
) -> None:
    settings.DATA_DIR = tmp_path

    with pytest.raises(CommandError, match="is not host:port"):
        call_command("local_setup", "--address", address, stdout=StringIO())

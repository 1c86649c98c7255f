"""Which AgentV runs the tests, its version, and `manage.py check` about it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from evals_app.services.runs.agentv_cli import agentv_status, forget_agentv_status, version_tuple
from tests.conftest import REPOSITORY


@pytest.fixture(autouse=True)
def asked_again() -> Iterator[None]:
    forget_agentv_status()
    yield
    forget_agentv_status()


def test_the_pinned_agentv_is_the_one_package_json_names(settings: Any) -> None:
    pinned = json.loads((REPOSITORY / "package.json").read_text())["dependencies"]["agentv"]
    settings.AGENTV_COMMAND = str(REPOSITORY / "node_modules" / ".bin" / "agentv")
    status = agentv_status()
    assert status.usable, status.problem
    assert status.version == pinned


def test_a_missing_agentv_says_how_to_install_it(settings: Any) -> None:
    settings.AGENTV_COMMAND = "/nowhere/agentv"
    status = agentv_status()
    assert not status.usable
    assert "AgentV is not installed: /nowhere/agentv was not found" in status.problem
    assert "make setup" in status.problem


def test_an_older_agentv_is_too_old(settings: Any) -> None:
    settings.AGENTV_COMMAND = "python3 -c 'print(\"4.1.0\")'"
    status = agentv_status()
    assert status.version == "4.1.0"
    assert status.problem == "AgentV 4.1.0 is too old: runs need 4.42.4 or newer."


def test_a_command_that_is_not_agentv_is_not_usable(settings: Any) -> None:
    settings.AGENTV_COMMAND = "python3 -c 'print(\"hello\")'"
    assert agentv_status().problem == "AgentV did not tell its version: hello"


@pytest.mark.parametrize(
    ("text", "numbers"),
    [("4.42.4", (4, 42, 4)), ("5.0.0-next.2", (5, 0, 0)), ("4.42", None), ("v4.1.0", None)],
)
def test_version_tuple(text: str, numbers: tuple[int, ...] | None) -> None:
    assert version_tuple(text) == numbers


def test_check_warns_when_runs_are_on_and_agentv_is_missing(settings: Any) -> None:
    settings.AGENTV_RUNS_ENABLED = True
    settings.AGENTV_COMMAND = "/nowhere/agentv"
    out = StringIO()
    call_command("check", stdout=out, stderr=out)
    assert "evals_app.W001" in out.getvalue()
    assert "AgentV is not installed" in out.getvalue()


def test_check_is_quiet_about_agentv_while_runs_are_off(settings: Any) -> None:
    settings.AGENTV_RUNS_ENABLED = False
    settings.AGENTV_COMMAND = "/nowhere/agentv"
    out = StringIO()
    call_command("check", stdout=out, stderr=out)
    assert "W001" not in out.getvalue()

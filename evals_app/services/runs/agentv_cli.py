"""Which AgentV CLI runs the tests, and which version it is (docs/runs.md, "AgentV")."""

from __future__ import annotations

import shlex
import subprocess
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings

# The release package.json pins: what the app's result reading was written against. An older
# AgentV writes a different index.jsonl (or none), so it is refused rather than misread.
MINIMUM_VERSION = (4, 42, 4)
VERSION_SECONDS = 30  # a first `agentv --version` loads the whole CLI


@dataclass(frozen=True)
class AgentvStatus:
    """Whether the configured AgentV can run tests: its version, or why not."""

    command: tuple[str, ...]
    version: str = ""
    problem: str = ""

    @property
    def usable(self) -> bool:
        return not self.problem


def agentv_command() -> list[str]:
    """The configured AgentV command, split as a shell would (AGENTV_COMMAND)."""
    return shlex.split(settings.AGENTV_COMMAND)


def agentv_status() -> AgentvStatus:
    """The configured AgentV's version, or why it cannot run tests (asked once per command
    per process)."""
    return _status_of(tuple(agentv_command()))


def forget_agentv_status() -> None:
    """Ask the CLI again next time (after AGENTV_COMMAND changed, as in tests)."""
    _status_of.cache_clear()


def version_tuple(version: str) -> tuple[int, ...] | None:
    """`4.42.4` (or `4.42.4-next.1`) as numbers; None when it is not a version."""
    parts = version.strip().split("-", 1)[0].split(".")
    if len(parts) != 3 or not all(part.isdigit() for part in parts):
        return None
    return tuple(int(part) for part in parts)


@lru_cache(maxsize=8)
def _status_of(command: tuple[str, ...]) -> AgentvStatus:
    minimum = ".".join(map(str, MINIMUM_VERSION))
    if not command:
        return AgentvStatus(command, problem="AGENTV_COMMAND is empty.")
    try:
        answer = subprocess.run(
            [*command, "--version"],
            capture_output=True,
            text=True,
            timeout=VERSION_SECONDS,
            check=False,
        )
    except FileNotFoundError:
        return AgentvStatus(
            command,
            problem=f"AgentV is not installed: {command[0]} was not found "
            "(run `make setup`, or set AGENTV_COMMAND).",
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return AgentvStatus(command, problem=f"AgentV could not be started: {error}")
    version = answer.stdout.strip().splitlines()[-1] if answer.stdout.strip() else ""
    numbers = version_tuple(version)
    if answer.returncode != 0 or numbers is None:
        said = (answer.stderr or answer.stdout).strip()[:300]
        return AgentvStatus(command, problem=f"AgentV did not tell its version: {said}")
    if numbers < MINIMUM_VERSION:
        return AgentvStatus(
            command,
            version,
            problem=f"AgentV {version} is too old: runs need {minimum} or newer.",
        )
    return AgentvStatus(command, version)

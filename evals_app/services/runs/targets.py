"""The targets a run may use: the operator's targets file, in AgentV 4's `targets:` format
whatever AgentV runs (each generation writes it in its own file, `generations/`), and always
a mock (docs/runs.md, "Targets")."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from django.conf import settings

MOCK_TARGET = "mock"
MOCK_ANSWER = "This is the fixed answer of the mock target."
# Providers that start a program on this machine (an agent CLI or any command): refused
# without AGENTV_RUNS_ALLOW_COMMANDS, as `script` graders are.
COMMAND_PROVIDERS = frozenset(
    {
        "cli",
        "claude",
        "claude-cli",
        "codex",
        "copilot-cli",
        "copilot-sdk",
        "pi-cli",
        "pi-coding-agent",
        "vscode",
        "vscode-insiders",
    }
)


class TargetsFileError(Exception):
    """The operator's targets file cannot be read; the message says where and why."""


@dataclass(frozen=True)
class Target:
    """One target of the targets file: its name and provider (its settings stay in the file,
    with their `${{ VARIABLE }}` references to the server's environment)."""

    name: str
    provider: str
    grader_target: str = ""

    @property
    def runs_commands(self) -> bool:
        return self.provider in COMMAND_PROVIDERS


def operator_targets() -> list[dict[str, Any]]:
    """The targets of AGENTV_TARGETS_FILE as written (none when unset)."""
    path = settings.AGENTV_TARGETS_FILE
    if not path:
        return []
    try:
        loaded = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise TargetsFileError(f"AGENTV_TARGETS_FILE {path} cannot be read: {error}") from None
    entries = loaded.get("targets") if isinstance(loaded, dict) else None
    if not isinstance(entries, list) or not all(
        isinstance(entry, dict) and isinstance(entry.get("name"), str) for entry in entries
    ):
        raise TargetsFileError(
            f"AGENTV_TARGETS_FILE {path}: expected `targets:`, a list of mappings with a `name`"
        )
    return entries


def judge_of(target: str) -> str:
    """The name of `target`'s judge (its `grader_target`), "" when it has none."""
    for entry in run_targets():
        if entry["name"] == target:
            return str(entry.get("grader_target") or entry.get("judge_target") or "")
    return ""


def run_targets() -> list[dict[str, Any]]:
    """Every target a run may use: the operator's, then the mock unless they named one so."""
    entries = operator_targets()
    if not any(entry["name"] == MOCK_TARGET for entry in entries):
        entries.append({"name": MOCK_TARGET, "provider": "mock", "response": MOCK_ANSWER})
    return entries


def offered_targets() -> list[Target]:
    """The targets the Run button offers, the mock first."""
    targets = [
        Target(
            entry["name"],
            str(entry.get("provider", "")),
            str(entry.get("grader_target") or entry.get("judge_target") or ""),
        )
        for entry in run_targets()
    ]
    return sorted(targets, key=lambda target: target.name != MOCK_TARGET)

"""What differs between generations of the AgentV CLI: how it is called, the file that names
its providers, where its results are and how its graders' verdicts read (docs/runs.md,
"AgentV generations")."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..formats import EvalFormat, format_problem


@dataclass(frozen=True)
class Generation(ABC):
    """One generation of the AgentV CLI, at the version the app detected."""

    version: str

    @property
    def label(self) -> str:
        """How results name it: "AgentV 4.42.4"."""
        return f"AgentV {self.version}"

    def reads(self, eval_format: EvalFormat | None) -> bool:
        """Whether this AgentV reads files of `eval_format` as they are."""
        return not format_problem(self.version, eval_format)

    @abstractmethod
    def providers_file(self, folder: Path, targets: list[dict[str, Any]]) -> Path:
        """Write the operator's targets (AgentV 4's `targets:` entries, `targets.py`) in this
        generation's own file under `folder`; returns its path."""

    @abstractmethod
    def command(
        self,
        agentv: list[str],
        eval_file: Path,
        providers: Path,
        target: str,
        judge: str,
        output: Path,
    ) -> list[str]:
        """The `agentv eval run` command running `eval_file` with `target` (and `judge` as
        the grader when it is not "") and writing its results under `output`."""

    @abstractmethod
    def index(self, output: Path) -> Path:
        """The results' index (one JSON line per test) under `output`."""

    @abstractmethod
    def grader_verdict(self, score: dict[str, Any]) -> str:
        """A grader's verdict (`pass`, `fail` or `skip`) from its entry in the index."""

    @abstractmethod
    def grader_assertions(
        self, score: dict[str, Any], grading: dict[str, Any] | None
    ) -> list[dict[str, Any]]:
        """A grader's assertions (`text`, `passed`, `evidence`), from its entry in the index or
        its part of the test's grading file (`grading`, when AgentV writes one)."""

    @abstractmethod
    def transcript(self, entry: dict[str, Any]) -> Any:
        """Where the index entry's transcript of JSON lines (`role`, `content`) is, relative
        to the output folder."""

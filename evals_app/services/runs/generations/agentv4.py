"""AgentV 4.x: `--targets targets.yaml --target NAME`, results in `<output>/index.jsonl`, each
grader with its verdict and assertions (docs/runs.md, "AgentV generations")."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .base import Generation


@dataclass(frozen=True)
class Agentv4(Generation):
    """The AgentV 4 CLI (4.42.4, the release package.json pins)."""

    def providers_file(self, folder: Path, targets: list[dict[str, Any]]) -> Path:
        # JSON is YAML: no emitter of ours decides how a setting's value reads.
        path = folder / "targets.yaml"
        path.write_text(json.dumps({"targets": targets}, indent=2), encoding="utf-8")
        return path

    def command(
        self,
        agentv: list[str],
        eval_file: Path,
        providers: Path,
        target: str,
        judge: str,
        output: Path,
    ) -> list[str]:
        # The judge is the target's own `grader_target`, in the targets file.
        return [
            *agentv,
            "eval",
            "run",
            str(eval_file),
            "--targets",
            str(providers),
            "--target",
            target,
            "--output",
            str(output),
        ]

    def index(self, output: Path) -> Path:
        return output / "index.jsonl"

    def grader_verdict(self, score: dict[str, Any]) -> str:
        return str(score.get("verdict") or "")

    def grader_assertions(
        self, score: dict[str, Any], grading: dict[str, Any] | None
    ) -> list[dict[str, Any]]:
        return [
            {
                "text": str(item.get("text", "")),
                "passed": bool(item.get("passed")),
                "evidence": str(item.get("evidence") or ""),
            }
            for item in score.get("assertions") or []
            if isinstance(item, dict)
        ]

    def transcript(self, entry: dict[str, Any]) -> Any:
        return entry.get("transcript_path")

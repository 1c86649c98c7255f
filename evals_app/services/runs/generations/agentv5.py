"""AgentV 5.x: `--providers providers.yaml --provider LABEL` (and `--grader-provider` for a
judge), results in `<output>/.internal/index.jsonl`, each grader with `pass` and a reason and
its assertions in the test's grading file (docs/runs.md, "AgentV generations")."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .base import Generation

# AgentV 5's DEFAULT_THRESHOLD (its graders/scoring.ts): a grader without a verdict passes
# at this score (`passFromVerdict`).
DEFAULT_THRESHOLD = 0.8
# AgentV 4's keys of a target that are not the provider's settings; AgentV 5 reads the
# settings under `config`, and these beside it.
TARGET_KEYS = ("name", "provider")
# AgentV 4's reference to the server's environment, `${{ NAME }}`; AgentV 5 refuses it ("Legacy
# environment syntax … has been removed") and reads `{{ env.NAME }}`.
ENVIRONMENT_REFERENCE = re.compile(r"\$\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


@dataclass(frozen=True)
class Agentv5(Generation):
    """The AgentV 5 CLI (verified on 5.3.1-next.1)."""

    def providers_file(self, folder: Path, targets: list[dict[str, Any]]) -> Path:
        path = folder / "providers.yaml"
        path.write_text(
            json.dumps({"providers": [provider(target) for target in targets]}, indent=2),
            encoding="utf-8",
        )
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
        return [
            *agentv,
            "eval",
            "run",
            str(eval_file),
            "--providers",
            str(providers),
            "--provider",
            target,
            *(["--grader-provider", judge] if judge else []),
            "--output",
            str(output),
        ]

    def index(self, output: Path) -> Path:
        return output / ".internal" / "index.jsonl"

    def grader_verdict(self, score: dict[str, Any]) -> str:
        passed = score.get("pass")
        if not isinstance(passed, bool):
            value = score.get("score")
            passed = isinstance(value, int | float) and value >= DEFAULT_THRESHOLD
        return "pass" if passed else "fail"

    def grader_assertions(
        self, score: dict[str, Any], grading: dict[str, Any] | None
    ) -> list[dict[str, Any]]:
        # The grading file's components of this grader: its checks and assertions carry the
        # text they checked (`assertion.value`); a member grader's carries none (it is listed
        # as a grader of its own).
        assertions = []
        for component in (grading or {}).get("component_results") or []:
            if not isinstance(component, dict):
                continue
            assertion = component.get("assertion")
            about: dict[str, Any] = assertion if isinstance(assertion, dict) else {}
            text = about.get("value")
            if not isinstance(text, str):
                continue
            if isinstance(about.get("id"), str):
                text = f"[{about['id']}] {text}"
            reason = str(component.get("reason") or "")
            assertions.append(
                {
                    "text": text,
                    "passed": bool(component.get("pass")),
                    "evidence": "" if reason in (text, about.get("value")) else reason,
                }
            )
        return assertions

    def transcript(self, entry: dict[str, Any]) -> Any:
        return entry.get("transcript_raw_path")


def provider(target: dict[str, Any]) -> dict[str, Any]:
    """An AgentV 4 target (`name`, `provider`, its settings) as an AgentV 5 provider (`id`:
    the backend, `label`: the name runs choose, `config`: the settings)."""
    settings = {
        key: _environment_references(value)
        for key, value in target.items()
        if key not in TARGET_KEYS
    }
    if "judge_target" in settings:  # AgentV 5 knows the judge only as `grader_target`
        settings.setdefault("grader_target", settings.pop("judge_target"))
    return {"id": str(target.get("provider", "")), "label": target["name"], "config": settings}


def _environment_references(value: Any) -> Any:
    if isinstance(value, str):
        return ENVIRONMENT_REFERENCE.sub(r"{{ env.\1 }}", value)
    if isinstance(value, list):
        return [_environment_references(item) for item in value]
    if isinstance(value, dict):
        return {key: _environment_references(item) for key, item in value.items()}
    return value

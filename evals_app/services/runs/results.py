"""Reading what `agentv eval --output DIR` wrote: `index.jsonl`, one line per test, and each
test's transcript and timing beside it (docs/runs.md, "Results")."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# AgentV prints these to stderr for a test it will not run; the test has no line in the index.
SKIPPED = re.compile(r"Skipping incomplete test: (?P<test>.+?)\. (?P<why>Missing .*)$", re.M)
ANSI = re.compile(r"\x1b\[[0-9;]*m")


class ResultsUnreadable(Exception):
    """AgentV's results are not what this reader knows; the message says what and where."""


@dataclass
class TestResult:
    """One test's outcome as AgentV reported it."""

    test_id: str
    verdict: str  # pass, fail, error or skipped (RunResult.Verdict)
    score: float | None = None
    answers: list[str] = field(default_factory=list)
    graders: list[dict[str, Any]] = field(default_factory=list)
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    duration_ms: int | None = None
    error: str = ""


def read_results(output: Path, stderr: str) -> dict[str, TestResult]:
    """Each test's result by id: the index's lines, and the tests AgentV skipped."""
    results: dict[str, TestResult] = {}
    for match in SKIPPED.finditer(ANSI.sub("", stderr)):
        test_id = match["test"]
        results[test_id] = TestResult(test_id, "skipped", error=match.group(0).strip())
    index = output / "index.jsonl"
    if not index.exists():
        return results
    for number, line in enumerate(index.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError as error:
            raise ResultsUnreadable(f"index.jsonl line {number} is not JSON: {error}") from None
        if not isinstance(entry, dict) or not isinstance(entry.get("test_id"), str):
            raise ResultsUnreadable(f"index.jsonl line {number} names no test_id")
        result = _test_result(entry, output)
        results[result.test_id] = result
    return results


def _test_result(entry: dict[str, Any], output: Path) -> TestResult:
    status = entry.get("execution_status")
    error = entry.get("error") if isinstance(entry.get("error"), str) else ""
    verdict = "error" if status == "execution_error" else "fail"
    if status == "ok":
        verdict = "pass"
    timing = _json_file(output, entry.get("timing_path"))
    usage = entry.get("token_usage") or timing.get("token_usage") or {}
    duration = entry.get("duration_ms") or timing.get("duration_ms") or None
    return TestResult(
        test_id=entry["test_id"],
        verdict=verdict,
        score=_number(entry.get("score")),
        answers=_answers(entry, output),
        graders=[_grader(score) for score in entry.get("scores") or [] if isinstance(score, dict)],
        input_tokens=_whole(usage.get("input")) if isinstance(usage, dict) else None,
        output_tokens=_whole(usage.get("output")) if isinstance(usage, dict) else None,
        cost_usd=_number(entry.get("cost_usd") or timing.get("cost_usd")),
        duration_ms=_whole(duration),
        error=error or "",
    )


def _answers(entry: dict[str, Any], output: Path) -> list[str]:
    """The model's answer of each turn: the assistant's messages of the transcript (one per
    turn of a conversation), else the final answer."""
    transcript = _file(output, entry.get("transcript_path"))
    answers = []
    if transcript is not None:
        for line in transcript.splitlines():
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict) and message.get("role") == "assistant":
                answers.append(_text(message.get("content")))
    if answers:
        return answers
    if isinstance(entry.get("output"), str):
        return [entry["output"]]
    answer = _file(output, entry.get("answer_path"))
    return [answer] if answer is not None else []


def _grader(score: dict[str, Any]) -> dict[str, Any]:
    """A grader's name, type, score, verdict, assertions and reasoning; a conversation's
    per-turn grader holds its own graders."""
    assertions = [
        {
            "text": str(item.get("text", "")),
            "passed": bool(item.get("passed")),
            "evidence": str(item.get("evidence") or ""),
        }
        for item in score.get("assertions") or []
        if isinstance(item, dict)
    ]
    return {
        "name": str(score.get("name") or score.get("type") or ""),
        "type": str(score.get("type") or ""),
        "score": _number(score.get("score")),
        "verdict": str(score.get("verdict") or ""),
        "reasoning": str(score.get("reasoning") or ""),
        "assertions": assertions,
        "graders": [
            _grader(inner) for inner in score.get("scores") or [] if isinstance(inner, dict)
        ],
    }


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return json.dumps(content, ensure_ascii=False, indent=2)


def _file(output: Path, relative: Any) -> str | None:
    if not isinstance(relative, str):
        return None
    path = (output / relative).resolve()
    if not path.is_relative_to(output.resolve()) or not path.is_file():
        return None
    return path.read_text(encoding="utf-8", errors="replace")


def _json_file(output: Path, relative: Any) -> dict[str, Any]:
    text = _file(output, relative)
    try:
        loaded = json.loads(text) if text is not None else {}
    except ValueError:
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _whole(value: Any) -> int | None:
    number = _number(value)
    return int(number) if number is not None and number >= 0 else None

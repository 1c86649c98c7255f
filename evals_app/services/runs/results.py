"""Reading what `agentv eval --output DIR` wrote: `index.jsonl`, one line per test, and each
test's transcript and timing beside it (docs/runs.md, "Results")."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .generations import Generation

# AgentV prints these to stderr for a test it will not run; the test has no line in the index:
# "Skipping incomplete test: ID. Missing …" (both generations) and "Skipping test 'ID': why"
# (AgentV 5, a grader it refuses).
SKIPPED = re.compile(
    r"Skipping incomplete test: (?P<test>.+?)\. (?P<why>Missing .*)$"
    r"|Skipping test '(?P<quoted>[^']+)': (?P<reason>.*)$",
    re.M,
)
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# The lines of what AgentV printed that are its warnings and errors (its logWarning and
# logError start them so; a message's detail lines follow, indented or not).
WARNING_LINE = re.compile(r"^(Warning|Error|Deprecation warning|⚠)", re.I)


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


def read_results(generation: Generation, output: Path, stderr: str) -> dict[str, TestResult]:
    """Each test's result by id: the index's lines, and the tests AgentV skipped."""
    results: dict[str, TestResult] = {}
    for match in SKIPPED.finditer(ANSI.sub("", stderr)):
        test_id = match["test"] or match["quoted"]
        results[test_id] = TestResult(test_id, "skipped", error=match.group(0).strip())
    index = generation.index(output)
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
        result = _test_result(generation, entry, output)
        results[result.test_id] = result
    return results


def warnings_of(stderr: str) -> list[str]:
    """AgentV's warnings and errors as it printed them (each with its detail lines), in order
    and once; the skipped tests' lines are among them."""
    found: list[str] = []
    for line in ANSI.sub("", stderr).splitlines():
        if WARNING_LINE.match(line.strip()) or line.strip().startswith("Skipping "):
            found.append(line.strip())
        elif found and line.startswith((" ", "\t")) and line.strip():
            found[-1] += "\n" + line.rstrip()
    return list(dict.fromkeys(found))


def _test_result(generation: Generation, entry: dict[str, Any], output: Path) -> TestResult:
    status = entry.get("execution_status")
    error = entry.get("error") if isinstance(entry.get("error"), str) else ""
    verdict = "error" if status == "execution_error" else "fail"
    if status == "ok":
        verdict = "pass"
    samples = entry.get("samples")
    if (
        isinstance(samples, list)
        and samples
        and all(isinstance(s, dict) and s.get("status") == "skipped" for s in samples)
    ):
        verdict = "skipped"  # AgentV 5: every grader skipped the test
    # AgentV 4 writes the tokens and the time in a timing file, AgentV 5 in a metrics file.
    timing = _json_file(output, entry.get("timing_path"))
    metrics = _json_file(output, entry.get("metrics_path"))
    spent = metrics.get("duration")
    usage = entry.get("token_usage") or timing.get("token_usage") or metrics.get("tokens") or {}
    duration = (
        entry.get("duration_ms")
        or timing.get("duration_ms")
        or (spent.get("total_ms") if isinstance(spent, dict) else None)
    )
    return TestResult(
        test_id=entry["test_id"],
        verdict=verdict,
        score=_number(entry.get("score")),
        answers=_answers(generation.transcript(entry), entry, output),
        graders=_graders(generation, entry, output),
        input_tokens=_whole(usage.get("input")) if isinstance(usage, dict) else None,
        output_tokens=_whole(usage.get("output")) if isinstance(usage, dict) else None,
        cost_usd=_number(entry.get("cost_usd") or timing.get("cost_usd")),
        duration_ms=_whole(duration),
        error=error or "",
    )


def _answers(transcript_path: Any, entry: dict[str, Any], output: Path) -> list[str]:
    """The model's answer of each turn: the assistant's messages of the transcript (one per
    turn of a conversation), else the final answer."""
    transcript = _file(output, transcript_path)
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


def _graders(generation: Generation, entry: dict[str, Any], output: Path) -> list[dict[str, Any]]:
    """The test's graders, each with its part of the grading file when AgentV writes one."""
    grading = _json_file(output, entry.get("grading_path")).get("component_results")
    parts = grading if isinstance(grading, list) else []
    scores = [score for score in entry.get("scores") or [] if isinstance(score, dict)]
    return [_grader(generation, score, _part(parts, index)) for index, score in enumerate(scores)]


def _part(parts: list[Any], index: int) -> dict[str, Any] | None:
    part = parts[index] if index < len(parts) else None
    return part if isinstance(part, dict) else None


def _grader(
    generation: Generation, score: dict[str, Any], grading: dict[str, Any] | None
) -> dict[str, Any]:
    """A grader's name, type, score, verdict, assertions and reasoning; a conversation's
    per-turn grader holds its own graders."""
    inner_parts = [
        part
        for part in (grading or {}).get("component_results") or []
        if isinstance(part, dict) and "value" not in (part.get("assertion") or {})
    ]
    return {
        "name": str(score.get("name") or score.get("type") or ""),
        "type": str(score.get("type") or ""),
        "score": _number(score.get("score")),
        "verdict": generation.grader_verdict(score),
        "reasoning": str(score.get("reasoning") or score.get("reason") or ""),
        "assertions": generation.grader_assertions(score, grading),
        "graders": [
            _grader(generation, inner, _part(inner_parts, index))
            for index, inner in enumerate(
                inner for inner in score.get("scores") or [] if isinstance(inner, dict)
            )
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

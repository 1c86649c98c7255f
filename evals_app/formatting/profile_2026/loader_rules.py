"""Where today's AgentV loader refuses a whole file or skips a test, and why (docs/formatting.md,
"The AgentV 2026 profile", warnings). Each rule follows AgentV's own loader (its
`yaml-parser.ts` and `grader-parser.ts`); the judge templates' rules are in `judge.py`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

UPGRADE = "Upgrade to today's format."
# Keys of a test's `execution` that AgentV reads (`KNOWN_TEST_EXECUTION_FIELDS`); any other
# refuses the file.
TEST_EXECUTION_KEYS = frozenset(
    {
        "assert",
        "assertions",
        "skip_defaults",
        "cache",
        "trials",
        "budget_usd",
        "budgetUsd",
        "fail_on_error",
        "failOnError",
        "threshold",
    }
)
# Top-level keys AgentV refuses, and whether the upgrade takes them away.
FILE_KEYS: dict[str, tuple[str, bool]] = {
    "target": ("top-level `target` has been removed (use `providers`)", True),
    "execution": ("top-level `execution` is not part of eval YAML", True),
    "input": ("top-level `input` has been removed (use `prompts`)", False),
    "expected_output": ("top-level `expected_output` has been removed", False),
    "workers": ("`workers` has been removed (use `evaluate_options.max_concurrency`)", False),
    "experiment": ("top-level `experiment` has been removed", False),
    "policy": ("top-level `policy` is not part of eval YAML", False),
    "graders": ("top-level `graders` has been removed (use `providers`)", False),
    "model": ("top-level `model` is not part of eval YAML", False),
}
# A test's keys that make AgentV refuse the whole file, and whether the upgrade fixes them.
TEST_KEYS: dict[str, tuple[str, bool]] = {
    "input": ("a test's `input` has been removed (use `vars.input` and `prompts`)", True),
    "expected_output": (
        "a test's `expected_output` has been removed (use `vars.expected_output`)",
        True,
    ),
    "provider_output": ("a test's `provider_output` is not supported", False),
}
# Assert types AgentV removed: each skips the test (`removedGraderReplacement`, the stale
# `tool-trajectory` and `skill-trigger`, and the LLM graders of old), with today's name.
REMOVED_TYPES: dict[str, str] = {
    "llm-grader": "llm-rubric",
    "llm_grader": "llm-rubric",
    "llm-judge": "llm-rubric",
    "llm_judge": "llm-rubric",
    "g-eval": "llm-rubric",
    "rubrics": "llm-rubric with a value",
    "rubric": "llm-rubric with a value",
    "tool-trajectory": "trajectory:tool-used, trajectory:tool-sequence",
    "tool_trajectory": "trajectory:tool-used, trajectory:tool-sequence",
    "skill-trigger": "skill-used",
    "script-grader": "script",
    "code-judge": "script",
    "code_judge": "script",
    "code_grader": "script",
    "composite": "assert-set",
    "field_accuracy": "field-accuracy",
    "token_usage": "token-usage",
    "execution_metrics": "execution-metrics",
    "contains_any": "contains-any",
    "contains_all": "contains-all",
    "icontains_any": "icontains-any",
    "icontains_all": "icontains-all",
    "starts_with": "starts-with",
    "ends_with": "ends-with",
    "is_json": "is-json",
}
# Types the upgrade converts (a file of these is fixed by upgrading it).
UPGRADED_TYPES = frozenset(REMOVED_TYPES) - {"skill-trigger", "rubric", "rubrics"}
RUBRIC_TYPES = ("llm-rubric", "agent-rubric")
RUBRIC_REMOVED_FIELDS = ("criteria", "rubric_item", "rubricItem", "rubrics")


def file_refusals(header: Mapping[Any, Any]) -> list[str]:
    """Why AgentV refuses the file whose top level is `header`, if it does."""
    reasons = [_refusal(*FILE_KEYS[key]) for key in FILE_KEYS if key in header]
    default_test = header.get("default_test")
    if isinstance(default_test, dict) and "expected_output" in default_test:
        reasons.append(_refusal("`default_test.expected_output` has been removed", False))
    return reasons


def test_refusals(document: Mapping[Any, Any]) -> list[str]:
    """Why AgentV refuses the whole file because of this test, if it does."""
    reasons = [_refusal(*TEST_KEYS[key]) for key in TEST_KEYS if key in document]
    execution = document.get("execution")
    if isinstance(execution, dict):
        for key in execution:
            if key == "target":
                reasons.append(_refusal("a test's `execution.target` has been removed", True))
            elif key not in TEST_EXECUTION_KEYS:
                reasons.append(_refusal(f"a test's `execution.{key}` is not supported", False))
    return reasons


def test_skips(document: Mapping[Any, Any], header: Mapping[Any, Any]) -> list[str]:
    """Why AgentV skips this test (and loads the rest of the file), if it does: an assert it
    refuses (the test's or the file's), or nothing to grade the test by."""
    own = document.get("assert")
    inherited = _inherited_asserts(document, header)
    reasons = [
        *_assert_skips(own if isinstance(own, list) else []),
        *_assert_skips(inherited),
    ]
    if not _gradable(document, inherited):
        reasons.append(
            "AgentV skips this test: it has no criteria, expected output, assert or turns."
        )
    return list(dict.fromkeys(reasons))


def _refusal(reason: str, upgrade_fixes: bool) -> str:
    advice = f" {UPGRADE}" if upgrade_fixes else ""
    return f"AgentV refuses this file: {reason}.{advice}"


def _inherited_asserts(document: Mapping[Any, Any], header: Mapping[Any, Any]) -> list[Any]:
    execution = document.get("execution")
    if isinstance(execution, dict) and execution.get("skip_defaults") is True:
        return []
    entries: list[Any] = []
    default_test = header.get("default_test")
    for source in (
        default_test.get("assert") if isinstance(default_test, dict) else None,
        header.get("assert"),
    ):
        if isinstance(source, list):
            entries.extend(source)
    return entries


def _gradable(document: Mapping[Any, Any], inherited: list[Any]) -> bool:
    """AgentV's rule for a complete test: criteria, an expected output, an assert (the test's
    or the file's) or turns."""
    criteria = document.get("criteria", document.get("expected_outcome"))
    turns = document.get("turns")
    return bool(
        (isinstance(criteria, str) and criteria)
        or document.get("expected_output") not in (None, "", [])
        or "assert" in document
        or inherited
        or (isinstance(turns, list) and turns)
    )


def _assert_skips(entries: list[Any]) -> Iterator[str]:
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        yield from _entry_skips(entry)
        if entry.get("type") == "assert-set" and isinstance(entry.get("assert"), list):
            yield from _assert_skips(entry["assert"])


def _entry_skips(entry: Mapping[Any, Any]) -> Iterator[str]:
    kind = entry.get("type")
    if not isinstance(kind, str):
        return
    base = kind.removeprefix("not-")
    if base in REMOVED_TYPES:
        advice = f" {UPGRADE}" if base in UPGRADED_TYPES and _upgrade_converts(entry) else ""
        yield (
            f"AgentV skips this test: an assert of type `{kind}` has been removed "
            f"(use `{REMOVED_TYPES[base]}`).{advice}"
        )
        return
    for key in ("postprocess", "preprocessors"):
        if key in entry:
            yield f"AgentV skips this test: an assert's `{key}` has been removed (use `transform`)."
    if kind == "script":
        if "script" in entry:
            yield (
                "AgentV skips this test: a script assert's `script` has been removed "
                "(use `command`)."
            )
        if "target" in entry:
            yield (
                "AgentV skips this test: a script assert's `target` has been removed "
                f"(use `provider`). {UPGRADE}"
            )
    elif kind in RUBRIC_TYPES:
        if isinstance(entry.get("target"), str):
            yield (
                f"AgentV skips this test: an {kind}'s `target` has been removed (use "
                f"`provider`). {UPGRADE}"
            )
        for key in RUBRIC_REMOVED_FIELDS:
            if key in entry:
                yield f"AgentV skips this test: an {kind}'s `{key}` has been removed (use `value`)."


def _upgrade_converts(entry: Mapping[Any, Any]) -> bool:
    """Whether the upgrade converts this removed evaluator: not what has no equivalent today
    (docs/formats.md, "Upgrading to today's format"; eval_files/trajectory_upgrade.py and
    grading_upgrade.py report the same cases)."""
    kind = entry.get("type")
    if kind in ("tool_trajectory", "tool-trajectory"):
        expected = entry.get("expected")
        calls = (
            [item for item in expected if isinstance(item, dict)]
            if isinstance(expected, list)
            else []
        )
        mode = entry.get("mode")
        return (
            not any("max_duration_ms" in call or "maxDurationMs" in call for call in calls)
            and (
                mode in ("in_order", "exact", "superset")
                or (mode == "any_order" and isinstance(entry.get("minimums"), dict))
            )
            and all(call.get("args_match", entry.get("args_match")) != "subset" for call in calls)
        )
    if kind == "composite":
        aggregator = entry.get("aggregator")
        members = entry.get("evaluators", entry.get("assert"))
        return (
            (
                aggregator is None
                or (
                    isinstance(aggregator, dict)
                    and aggregator.get("type") in ("weighted_average", "threshold")
                )
            )
            and isinstance(members, list)
            and all(_upgrade_converts(m) for m in members if isinstance(m, dict))
        )
    return True

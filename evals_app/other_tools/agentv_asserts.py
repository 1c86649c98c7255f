"""Which assert types and assert keys today's AgentV reads (its `GRADER_KIND_VALUES` and the
promptfoo types its validator accepts), so that an imported assert is kept only when AgentV
runs it and is otherwise kept aside with a warning (docs/imports.md)."""

from __future__ import annotations

from typing import Any

from .base import TestBuilder

ASSERT_TYPES = frozenset(
    {
        "script",
        "llm-grader",
        "tool-trajectory",
        "skill-used",
        "not-skill-used",
        "trajectory:tool-used",
        "trajectory:tool-args-match",
        "trajectory:tool-sequence",
        "trajectory:step-count",
        "trajectory:goal-success",
        "field-accuracy",
        "latency",
        "cost",
        "token-usage",
        "execution-metrics",
        "assert-set",
        "llm-rubric",
        "agent-rubric",
        "contains",
        "contains-any",
        "contains-all",
        "icontains",
        "icontains-any",
        "icontains-all",
        "starts-with",
        "ends-with",
        "regex",
        "is-json",
        "equals",
        "javascript",
        "python",
        "webhook",
        "similar",
    }
)
# Keys of an assert entry AgentV reads (loaders/grader-parser.ts); `assert` for an assert-set.
ASSERT_KEYS = frozenset(
    {"type", "value", "threshold", "weight", "metric", "required", "config", "provider", "assert"}
)


def is_accepted(kind: str) -> bool:
    """Whether AgentV runs an assert of type `kind` (`not-` negates any of them)."""
    return kind.removeprefix("not-") in ASSERT_TYPES


def mapped_assert(builder: TestBuilder, field: str, entry: Any) -> Any | None:
    """A promptfoo-style assert as AgentV keeps it, or None when it is kept aside: an unknown
    type whole, an unknown key of a known type alone (`transform`, `rubricPrompt`, …)."""
    if isinstance(entry, str):
        return entry  # a rubric item in AgentV
    if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
        builder.keep_unsupported(field, entry, "not an assert AgentV reads")
        return None
    kind = (
        entry["type"].replace("_", "-")
        if not entry["type"].startswith("trajectory")
        else entry["type"]
    )
    if not is_accepted(kind):
        builder.keep_unsupported(field, entry, f"AgentV has no {entry['type']!r} assert")
        return None
    kept: dict[str, Any] = {"type": kind}
    for key, value in entry.items():
        if key == "type":
            continue
        if key not in ASSERT_KEYS:
            builder.keep_unsupported(f"{field}.{key}", value, f"AgentV's asserts have no {key!r}")
            continue
        if key == "assert" and isinstance(value, list):
            nested = [
                mapped_assert(builder, f"{field}.assert[{i}]", item) for i, item in enumerate(value)
            ]
            kept[key] = [item for item in nested if item is not None]
            continue
        kept[key] = value
    return kept

"""A 2025 `tool_trajectory` evaluator as today's `trajectory:*` asserts, as AgentV's own
migration messages say (docs/formats.md, "Upgrading to today's format")."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

TRAJECTORY_TYPES = ("tool_trajectory", "tool-trajectory")
# The keys every converted assert keeps from the evaluator (its weight is shared out).
SHARED_KEYS = ("required", "min_score", "negate")
# The 2025 argument modes: `exact` (the default) and `superset` (the call may have more
# arguments) are today's `exact` and `partial`; `ignore` checks no argument.
ARGS_MODES = {"exact": "exact", "superset": "partial"}


@dataclass
class TrajectoryUpgrade:
    """Today's asserts for one evaluator, or why there are none (`unconvertible`)."""

    asserts: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    unconvertible: str | None = None


def trajectory_asserts(evaluator: dict[Any, Any]) -> TrajectoryUpgrade:
    """`any_order` minimums → one `trajectory:tool-used` per tool; `in_order`/`exact` →
    `trajectory:tool-sequence` with `mode` and `steps`, and a `trajectory:tool-args-match`
    per expected call with arguments; `superset` → `trajectory:tool-used` per expected tool."""
    upgrade = TrajectoryUpgrade()
    mode = evaluator.get("mode")
    expected = evaluator.get("expected")
    if isinstance(expected, list) and any(_latency(item) for item in expected):
        # The calls are checked as today's asserts can; their time budgets cannot be (AgentV:
        # "per-tool latency checks such as max_duration_ms have no trajectory:* equivalent"),
        # and the note names each one the test no longer checks.
        budgets = [_budget(item) for item in expected if _latency(item)]
        expected = [_without_latency(item) for item in expected]
        evaluator = {**evaluator, "expected": expected}
        upgrade.notes.append(
            "AgentV will not check the per-tool latency budgets ("
            + ", ".join(budgets)
            + "): today's AgentV has no per-tool latency check; the tool calls are still checked"
        )
    minimums = evaluator.get("minimums")
    if mode == "any_order" and isinstance(minimums, dict) and minimums:
        upgrade.asserts = [_used(tool, count) for tool, count in minimums.items()]
    elif mode in ("in_order", "exact") and isinstance(expected, list):
        calls = [item for item in expected if isinstance(item, dict) and "tool" in item]
        steps = [call["tool"] for call in calls]
        sequence = {"type": "trajectory:tool-sequence", "value": {"mode": mode, "steps": steps}}
        upgrade.asserts = [sequence]
        for call in calls:
            args = _args_match(call, evaluator, upgrade)
            if upgrade.unconvertible is not None:
                return upgrade
            if args is not None:
                upgrade.asserts.append(args)
    elif mode == "superset" and isinstance(expected, list):
        counts = Counter(
            item["tool"] for item in expected if isinstance(item, dict) and "tool" in item
        )
        upgrade.asserts = [_used(tool, count) for tool, count in counts.items()]
    else:
        upgrade.unconvertible = (
            f"a tool_trajectory with mode {mode!r} and these checks has no equivalent in "
            "today's AgentV"
        )
        return upgrade
    if not upgrade.asserts:
        upgrade.unconvertible = "a tool_trajectory that names no tool"
        return upgrade
    _share(evaluator, upgrade.asserts)
    return upgrade


LATENCY_KEYS = ("max_duration_ms", "maxDurationMs")


def _latency(item: Any) -> bool:
    return isinstance(item, dict) and any(key in item for key in LATENCY_KEYS)


def _budget(item: dict[Any, Any]) -> str:
    """One expected call's time budget in words: `Read within 200 ms`."""
    limit = next(item[key] for key in LATENCY_KEYS if key in item)
    return f"{item.get('tool', 'a tool')} within {limit} ms"


def _without_latency(item: Any) -> Any:
    if not _latency(item):
        return item
    return {key: value for key, value in item.items() if key not in LATENCY_KEYS}


def _used(tool: Any, count: Any) -> dict[str, Any]:
    value: dict[str, Any] = {"name": tool}
    if isinstance(count, int) and not isinstance(count, bool):
        value["min"] = count
    return {"type": "trajectory:tool-used", "value": value}


def _args_match(
    call: dict[Any, Any], evaluator: dict[Any, Any], upgrade: TrajectoryUpgrade
) -> dict[str, Any] | None:
    """The argument check of one expected call, or None when it checks none."""
    args = call.get("args")
    if args is None or args == "any":
        return None
    match = call.get("args_match", evaluator.get("args_match", "exact"))
    if match == "ignore":
        return None
    if isinstance(match, list):
        # A list of fields compares only those: the call's arguments cut down, matched
        # partially.
        if isinstance(args, dict):
            args = {key: value for key, value in args.items() if key in match}
        mode = "partial"
    elif match in ARGS_MODES:
        mode = ARGS_MODES[match]
    else:
        upgrade.unconvertible = (
            f"a tool_trajectory's `args_match: {match}` has no equivalent in today's AgentV"
        )
        return None
    value = {"name": call["tool"], "args": args, "mode": mode}
    return {"type": "trajectory:tool-args-match", "value": value}


def _share(evaluator: dict[Any, Any], asserts: list[dict[str, Any]]) -> None:
    """The evaluator's name, weight and flags on each assert made of it: a weight is shared
    out, so that together they count as the one evaluator did."""
    name = evaluator.get("name")
    weight = evaluator.get("weight", 1 if len(asserts) > 1 else None)
    for index, entry in enumerate(asserts):
        if isinstance(name, str):
            entry["metric"] = name if len(asserts) == 1 else f"{name}-{index + 1}"
        if isinstance(weight, int | float) and not isinstance(weight, bool):
            share = weight / len(asserts)
            entry["weight"] = int(share) if share == int(share) else round(share, 6)
        entry.update((key, evaluator[key]) for key in SHARED_KEYS if key in evaluator)

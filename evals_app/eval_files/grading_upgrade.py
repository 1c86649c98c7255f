"""Grading of an older case as today's asserts: evaluators and rubrics (docs/formats.md,
"Upgrading to today's format"), and the judge prompts that may name template files."""

from __future__ import annotations

import shlex
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .dialects import FILE_PROTOCOL, reference_path
from .trajectory_upgrade import TRAJECTORY_TYPES, trajectory_asserts

LLM_JUDGE_TYPES = ("llm_judge", "llm-judge", "llm-grader", "llm_grader", "g-eval")
CODE_TYPES = ("code", "code_judge", "code-judge", "code_grader", "script-grader")
FIELD_ACCURACY_TYPES = ("field_accuracy",)
# Today's spellings of the other removed names (AgentV's grader parser,
# `removedGraderReplacement`).
RENAMED_TYPES = {
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
# What today's field-accuracy reads of a field, and the matches it knows.
FIELD_KEYS = ("path", "match", "required", "weight", "tolerance", "relative", "formats")
FIELD_MATCHES = ("exact", "numeric_tolerance", "date")
# AgentV's own suggestion for grading against a reference answer held in vars.
REFERENCE_RUBRIC = "Matches the reference answer: {{ expected_output }}"
# The text of a typed rubric item, by each name it had.
RUBRIC_TEXT_KEYS = ("outcome", "expected_outcome", "criteria", "description")


def judge_prompt_values(header: Mapping[Any, Any], cases: Sequence[Mapping[Any, Any]]) -> list[str]:
    """Every judge prompt of a file that may name a file, as written, in order and once:
    the prompts of `llm_judge` evaluators (file and case level), and of `llm-rubric` asserts
    with a `file://` prompt."""
    found: dict[str, None] = {}
    for container in (header, *cases):
        for entry in _grading_entries(container):
            value = _prompt_reference(entry)
            if value is not None:
                found[value] = None
    return list(found)


def _grading_entries(container: Mapping[Any, Any]) -> list[Any]:
    entries: list[Any] = []
    execution = container.get("execution")
    sources = [container.get("evaluators"), container.get("assert")]
    if isinstance(execution, dict):
        sources.insert(0, execution.get("evaluators"))
    for source in sources:
        if isinstance(source, list):
            entries.extend(_with_members(source))
    return entries


def _with_members(entries: list[Any]) -> Iterator[Any]:
    """Each entry, then the members of a composite (or assert-set), at any depth."""
    for entry in entries:
        yield entry
        if isinstance(entry, dict) and entry.get("type") in ("composite", "assert-set"):
            for key in ("evaluators", "assert"):
                if isinstance(entry.get(key), list):
                    yield from _with_members(entry[key])


def _prompt_reference(entry: Any) -> str | None:
    if not isinstance(entry, dict) or not isinstance(entry.get("prompt"), str):
        return None
    prompt = entry["prompt"].strip()
    if entry.get("type") == "llm-rubric" and prompt.startswith(FILE_PROTOCOL):
        return reference_path(prompt)
    if entry.get("type") in LLM_JUDGE_TYPES and prompt and "\n" not in prompt:
        return prompt
    return None


@dataclass
class GradingContext:
    """What converting one case's (or file's) evaluators needs and finds: the prompt files
    (as in `upgrade_eval_file`), the case's criteria and whether it has an expected answer
    (what a judge without a prompt graded against), the notes, and why AgentV will skip the
    test (`skips`: an evaluator with no equivalent today, kept as it was)."""

    prompt_files: Mapping[str, str]
    notes: list[str]
    skips: list[str] = field(default_factory=list)
    criteria: Any = None
    has_reference: bool = False


def is_default_judge(evaluator: Any) -> bool:
    """Whether `evaluator` is an LLM judge with nothing of its own to grade by (no prompt,
    value, rubrics or criteria): the 2025 default judge of the case's criteria."""
    return (
        isinstance(evaluator, dict)
        and evaluator.get("type") in LLM_JUDGE_TYPES
        and not any(key in evaluator for key in ("prompt", "value", "rubrics", "criteria"))
    )


def evaluator_asserts(evaluator: Any, context: GradingContext) -> list[Any]:
    """Today's assert entries for a 2025 evaluator (one, or several for a `tool_trajectory`):
    `llm_judge` → `llm-rubric`, `code` → `script`, `composite` → `assert-set`,
    `tool_trajectory` → `trajectory:*`, `field_accuracy` → `field-accuracy`; any other
    evaluator is kept as it is."""
    if not isinstance(evaluator, dict):
        return [evaluator]
    kind = evaluator.get("type")
    if kind in TRAJECTORY_TYPES:
        upgrade = trajectory_asserts(evaluator)
        context.notes.extend(upgrade.notes)
        if upgrade.unconvertible is not None:
            context.skips.append(upgrade.unconvertible)
            return [evaluator]
        return list(upgrade.asserts)
    if kind == "composite":
        return [_assert_set(evaluator, context)]
    if kind in FIELD_ACCURACY_TYPES:
        return [_field_accuracy(evaluator, context)]
    return [_evaluator_assert(evaluator, context)]


def _evaluator_assert(evaluator: dict[Any, Any], context: GradingContext) -> dict[Any, Any]:
    kind = evaluator.get("type")
    judge, code = kind in LLM_JUDGE_TYPES, kind in CODE_TYPES
    converted: dict[Any, Any] = {}
    for key, value in evaluator.items():
        if key == "type" and judge:
            converted["type"] = "llm-rubric"
        elif key == "type" and code:
            converted["type"] = "script"
        elif key == "type" and kind in RENAMED_TYPES:
            converted["type"] = RENAMED_TYPES[kind]
        elif key == "prompt" and judge:
            converted.update(_judge_prompt(value, context.prompt_files, context.notes))
        elif key in ("script", "command") and code:
            if key == "script" and "command" in evaluator:
                context.notes.append("evaluator `script` dropped: it also has `command`")
                continue
            converted["command"] = _argv(value, context.notes)
        elif key in ("rubrics", "criteria") and judge:
            if "value" in converted or "prompt" in evaluator or "value" in evaluator:
                converted.setdefault("metadata", {})[key] = value
                context.notes.append(
                    f"evaluator `{key}` kept as `metadata.{key}` (it has a prompt)"
                )
            else:
                converted["value"] = value
        elif key == "target" and (isinstance(value, str) or code):
            # Today's name for a grader's own provider; a code judge's `{max_calls: N}`
            # is its `provider` too.
            converted["provider"] = value
        else:
            converted[key] = value
    if judge and not _has_value(converted):
        _judge_value(converted, context)
    return converted


def _has_value(converted: dict[Any, Any]) -> bool:
    value = converted.get("value")
    return bool(value.strip()) if isinstance(value, str) else bool(value)


def _judge_value(converted: dict[Any, Any], context: GradingContext) -> None:
    """Today's `llm-rubric` needs a `value` or an inline prompt: a prompt file alone is
    skipped. A 2025 judge graded the case's criteria (and its expected answer), so they
    become its value."""
    prompt = converted.get("prompt")
    if isinstance(prompt, str) and prompt.strip() and not prompt.startswith(FILE_PROTOCOL):
        return
    if isinstance(context.criteria, str) and context.criteria.strip():
        converted["value"] = context.criteria
    elif context.has_reference:
        converted["value"] = REFERENCE_RUBRIC
    elif isinstance(prompt, str):
        converted["value"] = f"Graded by the judge prompt {prompt.removeprefix(FILE_PROTOCOL)}."
    else:
        context.skips.append(
            "an llm_judge with no prompt, and no criteria or expected answer to grade against"
        )


def _assert_set(evaluator: dict[Any, Any], context: GradingContext) -> dict[Any, Any]:
    """A `composite` as an `assert-set`: its members (each converted) under `assert`, a
    `weighted_average` aggregator's weights on the members, a `threshold` aggregator's
    threshold kept. Another aggregator (a code or LLM judge) has no equivalent."""
    aggregator = evaluator.get("aggregator")
    aggregator_type = aggregator.get("type") if isinstance(aggregator, dict) else None
    if aggregator is not None and aggregator_type not in ("weighted_average", "threshold"):
        context.skips.append(
            f"a composite's `aggregator` of type {aggregator_type!r} has no equivalent in "
            "today's AgentV (an assert-set averages its members by weight)"
        )
        return evaluator
    members = evaluator.get("evaluators", evaluator.get("assert"))
    if not isinstance(members, list):
        context.skips.append("a composite without a list of evaluators")
        return evaluator
    skips_before = len(context.skips)
    converted_members = [item for member in members for item in evaluator_asserts(member, context)]
    if len(context.skips) > skips_before:
        return evaluator
    weights = aggregator.get("weights") if isinstance(aggregator, dict) else None
    if isinstance(weights, dict):
        for member in converted_members:
            name = member.get("name", member.get("metric")) if isinstance(member, dict) else None
            if name in weights:
                member["weight"] = weights[name]
    converted: dict[Any, Any] = {}
    for key, value in evaluator.items():
        if key == "type":
            converted["type"] = "assert-set"
        elif key in ("evaluators", "assert"):
            converted["assert"] = converted_members
        elif key == "aggregator":
            if isinstance(value, dict) and aggregator_type == "threshold" and "threshold" in value:
                converted["threshold"] = value["threshold"]
        else:
            converted[key] = value
    return converted


def _field_accuracy(evaluator: dict[Any, Any], context: GradingContext) -> dict[Any, Any]:
    """`field_accuracy` → `field-accuracy`, with a note for each field option today's AgentV
    ignores (a field it skips, such as `match: fuzzy`, or a key it does not read)."""
    converted = {
        key: ("field-accuracy" if key == "type" else value) for key, value in evaluator.items()
    }
    fields = evaluator.get("fields")
    for field_entry in fields if isinstance(fields, list) else []:
        if not isinstance(field_entry, dict):
            continue
        path = field_entry.get("path", "?")
        match = field_entry.get("match")
        if match not in FIELD_MATCHES:
            context.notes.append(
                f"field-accuracy field `{path}`: `match: {match}` is not read by today's AgentV, "
                "which skips the field (for fuzzy matching, use a script)"
            )
        ignored = [key for key in field_entry if key not in FIELD_KEYS]
        if ignored:
            names = ", ".join(f"`{key}`" for key in ignored)
            context.notes.append(
                f"field-accuracy field `{path}`: {names} ignored by today's AgentV"
            )
    return converted


def _judge_prompt(value: Any, prompt_files: Mapping[str, str], notes: list[str]) -> dict[str, Any]:
    if not isinstance(value, str):
        notes.append("a judge prompt that is not text is kept as `prompt`")
        return {"prompt": value}
    stripped = value.strip()
    if stripped in prompt_files:
        return {"prompt": FILE_PROTOCOL + prompt_files[stripped]}
    if stripped and "\n" not in stripped and _looks_like_path(stripped):
        notes.append(f"judge prompt file {stripped} is not in the workspace")
        return {"prompt": FILE_PROTOCOL + stripped}
    return {"value": value}


def _looks_like_path(value: str) -> bool:
    # As the 2025 judge decided (formatting/judge_prompt.py): one word with an extension.
    name = value.rsplit("/", 1)[-1]
    return not any(char.isspace() for char in value) and "." in name.strip(".")


def _argv(value: Any, notes: list[str]) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return shlex.split(value)
    except ValueError as error:
        notes.append(f"script command {value!r} kept as text: {error}")
        return value


def rubric_assert(item: Any) -> Any:
    """A rubric line stays a string; a typed rubric item becomes an `llm-rubric` with its text
    as `value` and its other keys (weight, required, …) kept; a score-range item without text
    becomes an `llm-rubric` whose value is the item itself (AgentV reads a score-range rubric
    there, and skips an `llm-rubric` with neither value nor prompt). An item that has a
    `type` is an assert already, and is kept."""
    if not isinstance(item, dict) or "type" in item:
        return item
    text_key = next((key for key in RUBRIC_TEXT_KEYS if key in item), None)
    if text_key is None:
        if "score_ranges" not in item:
            return item
        scored: dict[Any, Any] = {"type": "llm-rubric", "value": [item]}
        if "weight" in item:
            scored["weight"] = item["weight"]
        return scored
    converted: dict[Any, Any] = {"type": "llm-rubric", "value": item[text_key]}
    converted.update((key, value) for key, value in item.items() if key != text_key)
    return converted

"""Grading of an older case as today's asserts: evaluators and rubrics (docs/formats.md,
"Upgrading to today's format"), and the judge prompts that may name template files."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from .dialects import FILE_PROTOCOL, reference_path

LLM_JUDGE_TYPES = ("llm_judge", "llm-judge")
CODE_TYPES = ("code", "code_judge", "code-judge", "code_grader", "script-grader")
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
            entries.extend(source)
    return entries


def _prompt_reference(entry: Any) -> str | None:
    if not isinstance(entry, dict) or not isinstance(entry.get("prompt"), str):
        return None
    prompt = entry["prompt"].strip()
    if entry.get("type") == "llm-rubric" and prompt.startswith(FILE_PROTOCOL):
        return reference_path(prompt)
    if entry.get("type") in LLM_JUDGE_TYPES and prompt and "\n" not in prompt:
        return prompt
    return None


def evaluator_assert(evaluator: Any, prompt_files: Mapping[str, str], notes: list[str]) -> Any:
    """Today's assert entry for a 2025 evaluator: `llm_judge` → `llm-rubric`, `code` →
    `script` (an argv `command`); any other evaluator is kept as it is."""
    if not isinstance(evaluator, dict):
        return evaluator
    kind = evaluator.get("type")
    converted: dict[Any, Any] = {}
    for key, value in evaluator.items():
        if key == "type" and kind in LLM_JUDGE_TYPES:
            converted["type"] = "llm-rubric"
        elif key == "type" and kind in CODE_TYPES:
            converted["type"] = "script"
        elif key == "prompt" and kind in LLM_JUDGE_TYPES:
            converted.update(_judge_prompt(value, prompt_files, notes))
        elif key in ("script", "command") and kind in CODE_TYPES:
            if key == "script" and "command" in evaluator:
                notes.append("evaluator `script` dropped: it also has `command`")
                continue
            converted["command"] = _argv(value, notes)
        elif key in ("rubrics", "criteria") and kind in LLM_JUDGE_TYPES:
            if "value" in converted or "prompt" in evaluator or "value" in evaluator:
                converted.setdefault("metadata", {})[key] = value
                notes.append(f"evaluator `{key}` kept as `metadata.{key}` (it has a prompt)")
            else:
                converted["value"] = value
        elif key == "target" and isinstance(value, str):
            converted["provider"] = value  # today's name for a grader's own provider
        else:
            converted[key] = value
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
    as `value` and its other keys (weight, required, …) kept."""
    if not isinstance(item, dict):
        return item
    text_key = next((key for key in RUBRIC_TEXT_KEYS if key in item), None)
    if text_key is None:
        return item
    converted: dict[Any, Any] = {"type": "llm-rubric", "value": item[text_key]}
    converted.update((key, value) for key, value in item.items() if key != text_key)
    return converted

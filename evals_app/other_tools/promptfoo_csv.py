"""promptfoo's tests in CSV (`site/docs/configuration/test-cases.md`): variables by column name,
`__expected` columns as asserts (`type:value`, `type(0.8):value`, no prefix: `equals`),
`__description`, `__metric`, `__threshold`, `__prefix`, `__suffix`, `__metadata:key`,
`__metadata:key[]` and `__config:__expectedN:key`."""

from __future__ import annotations

import re
from typing import Any

from .agentv_asserts import mapped_assert
from .base import TestBuilder, set_var

_EXPECTED = re.compile(r"__expected(\d*)\Z")
_CONFIG = re.compile(r"__config:(__expected\d*):(.+)\Z")
_TYPED = re.compile(
    r"(not-)?([a-z][a-z0-9-]*(?::[a-z-]+)?)(?:\((\d+(?:\.\d+)?)\))?:(.*)\Z", re.DOTALL
)
# promptfoo's shorthands of a CSV expectation.
ALIASES = {"grade": "llm-rubric", "fn": "javascript", "eval": "javascript"}
LIST_TYPES = frozenset({"contains-any", "contains-all", "icontains-any", "icontains-all"})
# The prefixes promptfoo reads as a type; any other text is an `equals` value.
KNOWN_PREFIXES = frozenset(
    {
        "contains",
        "icontains",
        "contains-any",
        "contains-all",
        "icontains-any",
        "icontains-all",
        "equals",
        "regex",
        "starts-with",
        "ends-with",
        "is-json",
        "contains-json",
        "is-sql",
        "contains-sql",
        "is-xml",
        "contains-xml",
        "is-html",
        "contains-html",
        "javascript",
        "python",
        "ruby",
        "llm-rubric",
        "model-graded-closedqa",
        "factuality",
        "similar",
        "levenshtein",
        "rouge-n",
        "bleu",
        "webhook",
        "answer-relevance",
        "context-faithfulness",
        "context-recall",
        "context-relevance",
        "classifier",
        "moderation",
        "is-refusal",
        "latency",
        "cost",
        "perplexity",
        "is-valid-openai-tools-call",
        "is-valid-openai-function-call",
        "trajectory:tool-used",
        "trajectory:tool-sequence",
        *ALIASES,
    }
)


def csv_test(builder: TestBuilder, row: dict[str, str]) -> None:
    """Fill `builder` from one CSV row."""
    asserts: dict[str, dict[str, Any]] = {}
    configs: list[tuple[str, str, str]] = []
    metric = ""
    for column, text in row.items():
        expected = _EXPECTED.match(column)
        config = _CONFIG.match(column)
        if expected:
            if text.strip():
                asserts[column] = expectation(text)
        elif config:
            if text.strip():
                configs.append((config.group(1), config.group(2), text))
        elif column == "__description":
            builder.description = text or None
        elif column == "__metric":
            metric = text
        elif column.startswith("__metadata:"):
            key = column.removeprefix("__metadata:")
            if key.endswith("[]"):
                builder.metadata[key[:-2]] = _comma_list(text)
            elif text:
                builder.metadata[key] = text
        elif column in ("__prefix", "__suffix", "__threshold"):
            if text:
                builder.keep_unsupported(
                    column, text, "promptfoo's per-test option has no AgentV equivalent"
                )
        elif column.startswith("__"):
            if text:
                builder.keep_unsupported(
                    column, text, "not a promptfoo CSV column this import knows"
                )
        else:
            set_var(builder, column, text)
    for target, key, text in configs:
        if target in asserts:
            asserts[target][key] = _number(text)
        else:
            builder.keep_unsupported(
                f"__config:{target}:{key}", text, f"there is no {target} column"
            )
    for column, entry in asserts.items():
        if metric:
            entry.setdefault("metric", metric)
        kept = mapped_assert(builder, column, entry)
        if kept is not None:
            builder.asserts.append(kept)


def expectation(text: str) -> dict[str, Any]:
    """One `__expected` cell as an assert, as promptfoo reads it."""
    match = _TYPED.match(text)
    if not match or match.group(2) not in KNOWN_PREFIXES:
        return {"type": "equals", "value": text}
    negated, kind, threshold, value = match.groups()
    kind = ALIASES.get(kind, kind)
    entry: dict[str, Any] = {"type": f"{negated or ''}{kind}"}
    value = value.strip()
    if kind in LIST_TYPES:
        entry["value"] = [item.strip() for item in value.split(",") if item.strip()]
    elif value:
        entry["value"] = value
    if threshold is not None:
        entry["threshold"] = float(threshold)
    return entry


def _comma_list(text: str) -> list[str]:
    """`a,b\\,c` as ["a", "b,c"]: promptfoo's `__metadata:key[]` list, `\\,` an escaped comma."""
    items = re.split(r"(?<!\\),", text)
    return [item.replace("\\,", ",").strip() for item in items if item.strip()]


def _number(text: str) -> Any:
    try:
        return float(text) if "." in text else int(text)
    except ValueError:
        return text

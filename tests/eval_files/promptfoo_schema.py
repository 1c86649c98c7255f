"""The shape of a promptfoo config, checked by hand: the keys and types of promptfoo's own
config schema (`UnifiedConfigSchema`, `TestCaseSchema`, `AssertionSchema` and
`AssertionSetSchema` of promptfoo 0.123's `src/types`), written down here rather than read from
promptfoo, whose package ships no JSON schema."""

from __future__ import annotations

from typing import Any

CONFIG_KEYS = frozenset(
    {
        "tags",
        "description",
        "providers",
        "targets",
        "prompts",
        "tests",
        "scenarios",
        "defaultTest",
        "outputPath",
        "sharing",
        "nunjucksFilters",
        "env",
        "derivedMetrics",
        "extensions",
        "metadata",
        "redteam",
        "writeLatestResults",
        "tracing",
        "evaluateOptions",
        "commandLineOptions",
    }
)
TEST_KEYS = frozenset(
    {
        "description",
        "vars",
        "provider",
        "providers",
        "prompts",
        "providerOutput",
        "assert",
        "assertScoringFunction",
        "options",
        "threshold",
        "metadata",
    }
)
ASSERT_KEYS = frozenset(
    {
        "type",
        "value",
        "config",
        "threshold",
        "weight",
        "provider",
        "rubricPrompt",
        "metric",
        "transform",
        "contextTransform",
    }
)
ASSERT_SET_KEYS = frozenset({"type", "assert", "weight", "metric", "threshold", "config"})
ASSERT_TYPES = frozenset(
    """agent-rubric answer-relevance bleu classifier contains contains-all contains-any
    contains-html contains-json contains-sql contains-xml context-faithfulness context-recall
    context-relevance conversation-relevance cost equals factuality finish-reason g-eval gleu
    guardrails icontains icontains-all icontains-any is-html is-json is-refusal is-sql
    is-valid-function-call is-valid-openai-function-call is-valid-openai-tools-call is-xml
    javascript latency levenshtein llm-rubric pi meteor model-graded-closedqa
    model-graded-factuality moderation perplexity perplexity-score python regex rouge-n ruby
    similar similar:cosine similar:dot similar:euclidean starts-with tool-call-f1 skill-used
    trajectory:goal-success trajectory:tool-args-match trajectory:step-count
    trajectory:tool-sequence trajectory:tool-used trace-error-spans trace-span-count
    trace-span-duration search-rubric webhook word-count""".split()  # noqa: SIM905
)


def config_problems(config: Any) -> list[str]:
    """What promptfoo's schema would refuse in `config`, each naming where; [] when none."""
    if not isinstance(config, dict):
        return ["the config is not a mapping"]
    problems = [f"unknown key {key!r}" for key in config if key not in CONFIG_KEYS]
    if ("providers" in config) == ("targets" in config):
        problems.append("exactly one of providers and targets is required")
    if not isinstance(config.get("providers", config.get("targets")), (str, list)):
        problems.append("providers must be text or a list")
    prompts = config.get("prompts")
    if not isinstance(prompts, list) or not all(isinstance(prompt, str) for prompt in prompts):
        problems.append("prompts must be a list of text")
    if "description" in config and not isinstance(config["description"], str):
        problems.append("description must be text")
    if "defaultTest" in config:
        problems += _test_problems(config["defaultTest"], "defaultTest")
    tests = config.get("tests", [])
    if not isinstance(tests, list):
        return [*problems, "tests must be a list"]
    for index, test in enumerate(tests):
        problems += _test_problems(test, f"tests[{index}]")
    return problems


def _test_problems(test: Any, where: str) -> list[str]:
    if not isinstance(test, dict):
        return [f"{where} is not a mapping"]
    problems = [f"{where}: unknown key {key!r}" for key in test if key not in TEST_KEYS]
    if "description" in test and not isinstance(test["description"], str):
        problems.append(f"{where}.description must be text")
    variables = test.get("vars", {})
    if not isinstance(variables, dict):
        problems.append(f"{where}.vars must be a mapping")
    else:
        problems += [
            f"{where}.vars.{name}: {'null' if value is None else 'a key that is not text'}"
            for name, value in variables.items()
            if value is None or not isinstance(name, str)
        ]
    for key in ("options", "metadata"):
        if key in test and not isinstance(test[key], dict):
            problems.append(f"{where}.{key} must be a mapping")
    if "threshold" in test and not _is_number(test["threshold"]):
        problems.append(f"{where}.threshold must be a number")
    asserts = test.get("assert", [])
    if not isinstance(asserts, list):
        return [*problems, f"{where}.assert must be a list"]
    for index, item in enumerate(asserts):
        problems += _assert_problems(item, f"{where}.assert[{index}]")
    return problems


def _assert_problems(item: Any, where: str) -> list[str]:
    if not isinstance(item, dict):
        return [f"{where} is not a mapping"]
    kind = item.get("type")
    if kind == "assert-set":
        problems = [f"{where}: unknown key {key!r}" for key in item if key not in ASSERT_SET_KEYS]
        members = item.get("assert")
        if not isinstance(members, list):
            return [*problems, f"{where}.assert must be a list"]
        for index, member in enumerate(members):
            problems += _assert_problems(member, f"{where}.assert[{index}]")
        return problems
    problems = [f"{where}: unknown key {key!r}" for key in item if key not in ASSERT_KEYS]
    if not isinstance(kind, str) or kind.removeprefix("not-") not in ASSERT_TYPES:
        problems.append(f"{where}: unknown type {kind!r}")
    for key in ("threshold", "weight"):
        if key in item and not _is_number(item[key]):
            problems.append(f"{where}.{key} must be a number")
    if "metric" in item and not isinstance(item["metric"], str):
        problems.append(f"{where}.metric must be text")
    return problems


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)

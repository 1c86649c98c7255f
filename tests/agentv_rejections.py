"""The keys today's AgentV refuses in an eval file, as its loaders say, and a check for them.

Each entry names where AgentV refuses it (`packages/core/src/evaluation/` of AgentV 5). The
upgrade (docs/formats.md, "Upgrading to today's format") must leave none of them behind.
"""

from __future__ import annotations

from typing import Any

# Top-level keys of an eval file.
REJECTED_FILE_KEYS: dict[str, str] = {
    # yaml-parser.ts rejectRemovedEvalCasesAliases; validation/eval-file.schema.ts
    "evalcases": "Top-level 'evalcases' has been removed from authored eval YAML",
    "eval_cases": "Top-level 'eval_cases' has been removed from authored eval YAML",
    # loaders/config-loader.ts extractTargetRefsFromSuite
    "target": "Top-level 'target' has been removed",
    "targets": "Top-level 'targets' has been removed",
    # loaders/config-loader.ts rejectAuthoredSuiteExecution
    "execution": "Top-level 'execution' is not part of eval YAML",
    # yaml-parser.ts rejectAuthoredDirectInput / rejectAuthoredExpectedOutput
    "input": "Top-level 'input' has been removed from authored eval YAML",
    "expected_output": "Top-level 'expected_output' has been removed from authored eval YAML",
    # loaders/config-loader.ts rejectAuthoredRuntimeContainers
    "experiment": "Top-level 'experiment' has been removed from authored eval YAML",
    "policy": "Top-level 'policy' is not part of eval YAML",
    "budget_usd": "Top-level 'budget_usd' has been removed",
    # yaml-parser.ts, the eval runtime config
    "graders": "top-level 'graders' has been removed",
    "runs": "top-level 'runs' has been removed",
    "early_exit": "top-level 'early_exit' has been removed",
    "repeat": "top-level 'repeat' has been removed",
    "on_run_complete": "top-level 'on_run_complete' has been removed",
    # yaml-parser.ts rejectPreprocessors; validation/eval-file.schema.ts
    "preprocessors": "preprocessors has been removed from authored eval YAML",
}

# Keys of a test (an entry of `tests`).
REJECTED_TEST_KEYS: dict[str, str] = {
    # yaml-parser.ts rejectAuthoredDirectInput, rejectRemovedScenarioRowFields
    "input": "tests[N].input has been removed from authored eval YAML",
    # yaml-parser.ts rejectAuthoredExpectedOutput
    "expected_output": "tests[N].expected_output has been removed from authored eval YAML",
    # yaml-parser.ts (loading a test) and loaders/jsonl-parser.ts
    "expected_outcome": "'expected_outcome' has been removed. Use 'assert' instead.",
    # yaml-parser.ts rejectRemovedScenarioRowFields
    "eval_cases": "eval_cases has been removed",
    "evalcases": "evalcases has been removed",
    "provider_output": "provider_output is not supported in authored AgentV YAML",
    # yaml-parser.ts rejectPostprocess / rejectPreprocessors
    "postprocess": "postprocess has been removed",
    "preprocessors": "preprocessors has been removed from authored eval YAML",
}

# Keys under a test's `execution` (yaml-parser.ts rejectUnsupportedTestExecutionFields:
# "test 'ID'.execution.KEY is not supported"; the rest of `execution` is read).
REJECTED_TEST_EXECUTION_KEYS: dict[str, str] = {
    "target": "test 'ID'.execution.target is not supported",
    "targets": "test 'ID'.execution.targets is not supported",
    "evaluators": "test 'ID'.execution.evaluators is not supported",
    # yaml-parser.ts, loading a test
    "workspace": "test 'ID'.execution.workspace has been removed from eval YAML",
}

# Keys of an assert entry.
REJECTED_ASSERT_KEYS: dict[str, str] = {
    # validation/eval-file.schema.ts AssertionObjectSchema
    "preprocessors": "preprocessors has been removed from authored eval YAML",
    "postprocess": "postprocess has been removed",
    "target": "Assertion field 'target' has been removed",
}
# Keys of an assert entry of one type (loaders/grader-parser.ts).
REJECTED_ASSERT_KEYS_BY_TYPE: dict[str, dict[str, str]] = {
    "script": {"script": "'script' field has been removed. Use 'command' instead."},
    "llm-rubric": {
        key: f"Unsupported llm-rubric field '{key}'. Use 'value' instead."
        for key in ("criteria", "rubric_item", "rubricItem", "rubrics")
    },
}


def rejected_keys(header: dict[Any, Any], tests: list[Any]) -> list[str]:
    """Every key of the file (its top-level mapping and its tests) that today's AgentV
    refuses, as a path with AgentV's reason; empty when it would load."""
    found = [f"{key}: {REJECTED_FILE_KEYS[key]}" for key in header if key in REJECTED_FILE_KEYS]
    found += _assert_keys("assert", header.get("assert"))
    for index, test in enumerate(tests):
        if not isinstance(test, dict):
            continue
        where = f"tests[{index}]"
        found += [
            f"{where}.{key}: {REJECTED_TEST_KEYS[key]}" for key in test if key in REJECTED_TEST_KEYS
        ]
        execution = test.get("execution")
        if isinstance(execution, dict):
            found += [
                f"{where}.execution.{key}: {REJECTED_TEST_EXECUTION_KEYS[key]}"
                for key in execution
                if key in REJECTED_TEST_EXECUTION_KEYS
            ]
        found += _assert_keys(f"{where}.assert", test.get("assert"))
    return found


def _assert_keys(where: str, entries: Any) -> list[str]:
    if not isinstance(entries, list):
        return []
    found = []
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            continue
        rejected = {
            **REJECTED_ASSERT_KEYS,
            **REJECTED_ASSERT_KEYS_BY_TYPE.get(entry.get("type"), {}),
        }
        found += [f"{where}[{index}].{key}: {rejected[key]}" for key in entry if key in rejected]
    return found

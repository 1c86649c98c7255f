"""The run sandbox's allow-list: what AgentV may be given to run without starting a program
on this machine, read from AgentV's own source for each generation the app runs
(docs/security.md, "Runs"; docs/runs.md, "Safety").

Anything not on the list counts as a command: an unknown grader type (AgentV looks for a
custom grader file for it), any key that names a program, hooks, inline providers. Commands
are refused unless the operator sets AGENTV_RUNS_ALLOW_COMMANDS.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

# Grader types AgentV 4.x runs in its own process (`GRADER_KIND_VALUES` of
# packages/core/src/evaluation/types.ts at v4.42.4, without `code-grader`, which runs its
# `command`, and `inline-assert`, a function of a TypeScript suite). 4.x turns `_` into `-`
# first; `llm-judge` is skipped by it with a warning.
SAFE_GRADERS_4 = frozenset(
    {
        "llm-grader",
        "llm-judge",
        "rubric",
        "rubrics",
        "composite",  # its members and aggregator are checked too
        "tool-trajectory",
        "field-accuracy",
        "latency",
        "cost",
        "token-usage",
        "execution-metrics",
        "skill-trigger",
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
    }
)
# The same for AgentV 5.x (`GRADER_KIND_VALUES` at 5.3.1-next, commit 58f316c), without
# `script`, `javascript`, `python` (programs), `webhook` (a request the suite aims) and
# `inline-assert`. 5.x takes a type as written; `not-` before a type negates it.
SAFE_GRADERS_5 = frozenset(
    {
        "llm-grader",
        "llm-rubric",
        "agent-rubric",
        "assert-set",  # its members are checked too
        "tool-trajectory",
        "skill-used",
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
        "similar",
    }
)
# A composite's aggregators that run no program (4.x `composite`).
SAFE_AGGREGATORS = frozenset({"weighted_average", "weighted-average", "threshold", "llm-grader"})

# Keys whose value is a list (or one) of graders, at every level AgentV reads them: the suite,
# `execution`, `default_test`, a case, a turn, a composite's or assert-set's members.
GRADER_LIST_KEYS = frozenset({"assertions", "assert", "evaluators", "graders"})
# Keys that make AgentV start a program (or load code) wherever they stand: commands and
# scripts of graders, prompts and transforms, hooks and setup steps of suites, workspaces and
# configs, a workspace's repositories and containers, an inline provider.
COMMAND_KEYS = frozenset(
    {
        "command",
        "commands",
        "script",
        "scripts",
        "hooks",
        "before_all",
        "after_all",
        "before_each",
        "after_each",
        "before_session",
        "setup",
        "teardown",
        "transform",
        "preprocessors",
        "postprocess",
        "extensions",
        "on_run_complete",
        "repos",
        "docker",
        "function",  # a 5.x prompt made by a program
        "function_file",
    }
)
# Keys that define a provider in the suite (a mapping, or a mapping's `provider`): providers
# come from the operator's targets file only; a list of names is fine.
PROVIDER_KEYS = frozenset({"provider", "providers", "targets", "target"})
# Keys whose values are the test's data (messages, variables, expected tool calls): their
# keys are never instructions to AgentV (`arguments: {command: ls}` is a tool call).
DATA_KEYS = frozenset(
    {
        "input",
        "input_messages",
        "expected_messages",
        "expected_output",
        "messages",
        "vars",
        "metadata",
        "content",
        "tool_calls",
        "args",
        "arguments",
        "criteria",
        "outcome",
        "expected_outcome",
        "description",
    }
)

# `${{ NAME }}` (4.x) and `{{ env.NAME }}` or any `{{ … env … }}` (5.x) read the environment.
ENV_REFERENCE_4 = re.compile(r"\$\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
TEMPLATE = re.compile(r"(?<!\$)\{\{(.*?)\}\}", re.DOTALL)
ENV_NAME_5 = re.compile(
    r"(?<![.\w])env\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*['\"]([^'\"]+)['\"]\s*\])"
)
WHOLE_TEMPLATE = re.compile(r"^\s*\{\{.*\}\}\s*$", re.DOTALL)
ENV_WORD = re.compile(r"(?<![.\w])env\b")


def is_safe_grader(kind: str) -> bool:
    """Whether AgentV runs a grader of type `kind` without starting a program. A suite may be
    run by either generation in the other's spelling (docs/runs.md), so a type is safe when
    it is on either list: no type on one list starts a program in the other, which takes it
    for a custom grader whose file a run without commands never holds."""
    base = kind[4:] if kind.startswith("not-") else kind
    return base in SAFE_GRADERS_5 or kind.replace("_", "-") in SAFE_GRADERS_4


def commands_in(value: Any, place: str) -> Iterator[str]:
    """Each place in `value` (a suite's header, a case, a referenced YAML file, a config)
    where AgentV would start a program, said in words after `place`."""
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{place} › {key}"
            if key in DATA_KEYS or _empty(item):
                continue
            if key in COMMAND_KEYS:
                yield f"{where}: starts a program"
            elif key in PROVIDER_KEYS and _defines_provider(key, item):
                yield f"{where}: defines a provider (only the operator's targets are used)"
            elif key in GRADER_LIST_KEYS:
                yield from _commands_in_graders(item, where)
            elif key == "aggregator" and isinstance(item, dict):
                kind = item.get("type")
                if not (isinstance(kind, str) and kind in SAFE_AGGREGATORS):
                    yield f"{where}: a `{kind}` aggregator runs a program"
                else:
                    yield from commands_in(item, where)
            elif key == "prompt" and isinstance(item, dict):
                yield f"{where}: a prompt written by a program"
            else:
                yield from commands_in(item, where)
    elif isinstance(value, list):
        for index, item in enumerate(value, start=1):
            yield from commands_in(item, f"{place} #{index}")


def _commands_in_graders(value: Any, place: str) -> Iterator[str]:
    entries = value if isinstance(value, list) else [value]
    for index, entry in enumerate(entries, start=1):
        where = f"{place} #{index}" if isinstance(value, list) else place
        if isinstance(entry, str) and WHOLE_TEMPLATE.match(entry):
            # AgentV puts the variable's value in its place, a grader of any type.
            yield f"{where}: a grader made from the variable in `{entry}`"
            continue
        if not isinstance(entry, dict):
            continue  # a string is a rubric criterion
        kind = entry.get("type")
        if isinstance(kind, str) and not is_safe_grader(kind):
            yield f"{where}: a `{kind}` grader starts a program"
        else:
            yield from commands_in(entry, where)


def _defines_provider(key: str, value: Any) -> bool:
    if key == "provider":
        return True
    if isinstance(value, dict):
        return True
    return isinstance(value, list) and any(isinstance(item, dict) for item in value)


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def environment_names(text: str) -> set[str]:
    """The environment variables `text` names for AgentV to put in (`${{ NAME }}`,
    `{{ env.NAME }}`); "env" itself when a template reads the environment as a whole."""
    names = set(ENV_REFERENCE_4.findall(text))
    for template in TEMPLATE.findall(text):
        if not ENV_WORD.search(template):
            continue
        named = ENV_NAME_5.findall(template)
        names.update(dotted or quoted for dotted, quoted in named)
        if len(ENV_WORD.findall(template)) > len(named):
            names.add("env")
    return names

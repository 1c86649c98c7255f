"""The spellings of AgentV's eval files through time, and which profile formats each.

A file of any period (November 2025 to today) names its parts by one of these aliases
(docs/formats.md, "Periods and their spellings"); the reader takes whichever it finds, and the
writer puts each part back under the name it came with.
"""

from __future__ import annotations

import posixpath
from typing import Any, Literal

from ..formatting.case_input import ROLES as ROLES
from ..formatting.case_input import Role as Role
from ..formatting.guideline_patterns import DEFAULT_GUIDELINE_PATTERNS as DEFAULT_GUIDELINE_PATTERNS

Profile = Literal["agentv-2025", "agentv-2026"]
PROFILES: tuple[Profile, ...] = ("agentv-2025", "agentv-2026")
PROFILE_2025 = PROFILES[0]  # a suite's profile unless its file is read as another's
PROFILE_LABELS: dict[Profile, str] = {
    "agentv-2025": "AgentV 2025 (guidelines, `evalcases` files)",
    "agentv-2026": "AgentV 2026 (today's `tests` files)",
}

EVAL_SCHEMA = "agentv-eval-v2"
EVAL_SCHEMA_PREFIX = "agentv-eval"
CONFIG_SCHEMA = "agentv-config-v2"

# The list of cases, oldest spelling first.
CASES_KEYS: tuple[str, ...] = ("evalcases", "eval_cases", "cases", "tests")
# Today's AgentV builds tests from `scenarios:` too (a config row × a test row each).
SCENARIOS_KEY = "scenarios"
# Where a case keeps its id, its conversation, its expected answer and what the judge grades
# against; the first alias of each is the spelling a new case of a 2025 file gets.
ID_KEYS: tuple[str, ...] = ("id", "test_id")
OUTCOME_KEYS: tuple[str, ...] = ("outcome", "expected_outcome", "criteria")
INPUT_PATHS: tuple[tuple[str, ...], ...] = (("input_messages",), ("input",), ("vars", "input"))
EXPECTED_PATHS: tuple[tuple[str, ...], ...] = (
    ("expected_messages",),
    ("expected_output",),
    ("vars", "expected_output"),
)
EVALUATOR_PATHS: tuple[tuple[str, ...], ...] = (("execution", "evaluators"), ("evaluators",))

# File names a user means as eval files, even when they do not parse.
EVAL_FILE_SUFFIXES = (".eval.yaml", ".eval.yml")
EVAL_FILE_NAMES = ("EVAL.yaml", "EVAL.yml")
# AgentV's experiment files: which suites and tests to run, never cases.
EXPERIMENT_FILE_SUFFIXES = (".exp.yaml", ".exp.yml")
EXPERIMENT_FILE = "AgentV experiment file"
# Folders whose YAML files are never eval files.
IGNORED_FOLDERS = frozenset({".git", "node_modules", ".agentv"})
CONFIG_PATH = ".agentv/config.yaml"
FILE_PROTOCOL = "file://"


def cases_key_of(data: Any) -> str | None:
    """The key that holds the list of cases in an eval file's top-level mapping, if any."""
    if not isinstance(data, dict):
        return None
    return next((key for key in CASES_KEYS if key in data), None)


def is_eval_document(data: Any) -> bool:
    """Whether a YAML document is an eval file: a mapping with a list of cases (any period's
    name for it) or of `scenarios`, or a `$schema` starting with `agentv-eval`
    (docs/formats.md)."""
    if not isinstance(data, dict):
        return False
    schema = data.get("$schema")
    return (
        cases_key_of(data) is not None
        or _is_scenario_list(data.get(SCENARIOS_KEY))
        or (isinstance(schema, str) and schema.startswith(EVAL_SCHEMA_PREFIX))
    )


def is_experiment_document(path: str, data: Any) -> bool:
    """Whether a YAML file is an AgentV experiment file, which selects suites and tests to run
    rather than holding cases: named `*.exp.yaml`, or a mapping with `eval_suites` or with an
    `eval_cases` that is a filter of test ids (text), not a list (docs/formats.md)."""
    if posixpath.basename(path).endswith(EXPERIMENT_FILE_SUFFIXES):
        return True
    if not isinstance(data, dict):
        return False
    return "eval_suites" in data or (
        isinstance(data.get("eval_cases"), str)
        and not any(isinstance(data.get(key), list) for key in CASES_KEYS)
    )


def _is_scenario_list(value: Any) -> bool:
    """Whether `value` is a list of AgentV scenarios (mappings with `config`, or file
    references): another tool's `scenarios:` does not make its file an eval file."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(
            (isinstance(item, dict) and "config" in item)
            or (isinstance(item, str) and item.startswith(FILE_PROTOCOL))
            for item in value
        )
    )


def reference_path(value: str) -> str:
    """The path a `file://PATH` reference (or a bare path) names."""
    return value.removeprefix(FILE_PROTOCOL)


def referenced_file(eval_path: str, value: str) -> str:
    """The workspace path of the file of cases that the eval file at `eval_path` names with the
    reference `value` (relative to the eval file's folder; may start with `../`)."""
    folder = posixpath.dirname(eval_path)
    return posixpath.normpath(posixpath.join(folder, reference_path(value).lstrip("/")))

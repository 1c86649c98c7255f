"""A suite's tests as AgentV runs them, in one shape every other tool's format is written from
(docs/exports.md).

An older suite is first upgraded in memory to today's format (`upgrade.py`, whose notes become
warnings), so one path serves every period: each case is expanded by `prompts` and list
variables as AgentV does (`formatting/profile_2026/expansion.py`), and each expanded test is
taken apart into its input messages, expected output, asserts and the rest.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...formatting.profile_2026.expansion import expand_test, expands_variable, read_prompts
from ...formatting.profile_2026.messages import is_message
from ...formatting.workspace_files import FileSource
from ..dialects import CASES_KEYS, cases_key_of
from ..merge_keys import merged
from ..upgrade import upgrade_eval_file

# The keys of an expanded test that `PortableTest` holds in its own fields.
_TAKEN_KEYS = frozenset(
    {"id", "test_id", "description", "input", "vars", "expected_output", "assert", "assertions"}
)
_TAKEN_KEYS |= {"criteria", "turns", "mode"}
# The top-level keys of a suite that its tests carry (the expansion reads `prompts`,
# `input_files` and `default_test`; `scenarios` made the stored tests), or that a format has.
_HEADER_KEYS = frozenset(
    {"description", "prompts", "input_files", "default_test", "assert", "providers", "targets"}
    | {*CASES_KEYS, "scenarios", "$schema"}
)


class ExportWarnings:
    """What an export could not carry over, each line naming the suite, the case and the field,
    once (the expanded tests of one case repeat them)."""

    def __init__(self, suite_path: str) -> None:
        self.suite_path = suite_path
        self._lines: dict[str, None] = {}

    def add(self, where: str, field_name: str, message: str) -> None:
        """Record `message` about `field_name` of `where` (a test, or the suite's defaults)."""
        self._lines[f"{self.suite_path}: {where}, `{field_name}`: {message}"] = None

    def note(self, message: str) -> None:
        """Record a warning about the suite as a whole."""
        self._lines[f"{self.suite_path}: {message}"] = None

    @property
    def lines(self) -> list[str]:
        """The warnings, in the order first recorded."""
        return list(self._lines)


@dataclass
class PortableTest:
    """One test AgentV runs: `input` its messages as rendered, `expected` the expected output as
    written (text or messages; None without one), `variables` its other variables, `asserts` its
    own, `other` every key the test has besides."""

    case_id: str
    id: str
    description: str | None
    input: list[dict[Any, Any]]
    expected: Any
    variables: dict[Any, Any]
    asserts: list[Any]
    criteria: str
    turns: list[dict[Any, Any]] | None
    other: dict[Any, Any]

    @property
    def where(self) -> str:
        """How a warning names the test: its case, and its own id when expanding changed it."""
        if self.id == self.case_id:
            return f'case "{self.case_id}"'
        return f'case "{self.case_id}" (test "{self.id}")'

    @property
    def skips_defaults(self) -> bool:
        """Whether the suite's default asserts do not apply (`execution.skip_defaults`)."""
        execution = self.other.get("execution")
        return isinstance(execution, dict) and execution.get("skip_defaults") is True


@dataclass
class PortableSuite:
    """A suite ready to be written in another tool's format: its description, its default
    variables and asserts, the systems under test it names, and its tests in AgentV's order."""

    path: str
    description: str | None
    default_vars: dict[Any, Any]
    default_asserts: list[Any]
    default_other: dict[Any, Any]
    providers: list[Any]
    # The suite's other top-level keys (AgentV's `name`, `workspace`, …): no test carries them.
    other: dict[Any, Any] = field(default_factory=dict)
    tests: list[PortableTest] = field(default_factory=list)
    warnings: ExportWarnings = field(init=False)

    def __post_init__(self) -> None:
        self.warnings = ExportWarnings(self.path)


def portable_suite(
    path: str,
    header: Mapping[Any, Any],
    documents: Sequence[dict[Any, Any]],
    *,
    older: bool,
    cases_key: str | None,
    files: FileSource,
    prompt_files: Mapping[str, str] | None = None,
) -> PortableSuite:
    """The tests of the suite at workspace path `path`: `header` its top-level mapping (or the
    mapping of the file that refers to its cases), `documents` its cases as stored. An `older`
    suite is upgraded first (`prompt_files` as `upgrade_eval_file` takes them)."""
    notes: list[str] = []
    header = dict(merged(dict(header)))
    cases = [merged(document) for document in documents if isinstance(document, dict)]
    if older:
        # The upgrade adds the prompt that sends `vars.input` where the list of cases stands
        # (for a file of cases, in the header of the file that refers to it).
        key = cases_key or cases_key_of(header) or "tests"
        header.setdefault(key, [])
        upgraded = upgrade_eval_file(header, cases, key, prompt_files)
        header, cases = dict(upgraded.header), upgraded.documents
        notes = upgraded.all_notes()
    default_test = header.get("default_test")
    default_test = default_test if isinstance(default_test, dict) else {}
    default_vars = default_test.get("vars")
    suite = PortableSuite(
        path=path,
        description=_text(header.get("description")),
        default_vars={
            name: value
            for name, value in (default_vars.items() if isinstance(default_vars, dict) else ())
            if not expands_variable(value)
        },
        default_asserts=[*_as_list(default_test.get("assert")), *_as_list(header.get("assert"))],
        default_other={
            key: value for key, value in default_test.items() if key not in ("vars", "assert")
        },
        providers=_as_list(header.get("providers", header.get("targets"))),
        other={key: value for key, value in header.items() if key not in _HEADER_KEYS},
    )
    for note in notes:
        suite.warnings.note(f"upgrading to today's format: {note}")
    prompt_warnings: list[str] = []
    prompts = read_prompts(
        header.get("prompts"), eval_path=path, files=files, warnings=prompt_warnings
    )
    for warning in prompt_warnings:
        suite.warnings.note(warning)
    for document in cases:
        case_id = _text(document.get("id", document.get("test_id"))) or ""
        for expanded in expand_test(document, header, prompts):
            test = _portable_test(case_id, expanded.document, header)
            if not test.input and not test.turns:
                suite.warnings.add(
                    test.where, "input", "none, and AgentV skips a test without input"
                )
            suite.tests.append(test)
    return suite


def _portable_test(case_id: str, test: dict[Any, Any], header: dict[Any, Any]) -> PortableTest:
    other = {key: value for key, value in test.items() if key not in _TAKEN_KEYS}
    messages = input_messages(test.get("input"))
    # `input_files` (the test's, else the suite's) become file blocks before a text input, as
    # AgentV sends them; with messages AgentV ignores them (and they stay in `other`).
    input_files = test.get("input_files", header.get("input_files"))
    paths = (
        [path for path in input_files if isinstance(path, str)]
        if isinstance(input_files, list)
        else []
    )
    if isinstance(test.get("input"), str) and paths:
        blocks: list[Any] = [{"type": "file", "value": path} for path in paths]
        messages = [
            {"role": "user", "content": [*blocks, {"type": "text", "value": test["input"]}]}
        ]
        other.pop("input_files", None)
    variables = test.get("vars")
    variables = dict(variables) if isinstance(variables, dict) else {}
    variables.pop("input", None)
    # Today's expected output is `vars.expected_output`; a test of early 2026 wrote it on the test.
    expected = variables.pop("expected_output", test.get("expected_output"))
    turns = test.get("turns")
    return PortableTest(
        case_id=case_id,
        id=_text(test.get("id", test.get("test_id"))) or case_id,
        description=_text(test.get("description")),
        input=messages,
        expected=expected,
        variables=variables,
        asserts=_as_list(test.get("assert", test.get("assertions"))),
        criteria=_text(test.get("criteria")) or "",
        turns=[turn for turn in turns if isinstance(turn, dict)]
        if isinstance(turns, list)
        else None,
        other=other,
    )


def input_messages(value: Any) -> list[dict[Any, Any]]:
    """The messages of a rendered input, whole (`tool_calls`, `name` and all), by AgentV's rules:
    text is one user message, a mapping with a role that message, a mapping without one the
    content of a user message, a list its messages (docs/formatting.md)."""
    if value is None:
        return []
    if isinstance(value, str):
        return _chat_array(value) or [{"role": "user", "content": value}]
    if isinstance(value, dict):
        if "role" not in value:
            return [{"role": "user", "content": value}]
        return [value] if is_message(value) else []
    if isinstance(value, list):
        return [item for item in value if is_message(item)]
    return []


def _chat_array(value: str) -> list[dict[Any, Any]] | None:
    """A text that is a JSON list of messages (a prompt file holding a chat array)."""
    if not value.strip().startswith("["):
        return None
    try:
        parsed = json.loads(value)
    except ValueError:
        return None
    if isinstance(parsed, list) and parsed and all(is_message(item) for item in parsed):
        return parsed
    return None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]

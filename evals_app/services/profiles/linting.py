"""What the linter reads of a stored or unsaved case of a suite (docs/user-guide.md, "Lint
rules"): the case's messages, grading, variables and files, as its profile reads them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...eval_files.case_parts import OTHER_GRADING_KEYS, file_evaluators, split_case
from ...eval_files.errors import EvalFileError
from ...eval_files.merge_keys import merged
from ...formatting.lint import LintCase, lint_case
from ...formatting.lint.case_rules import template_strings
from ...formatting.profile_2026.expansion import (
    FILE_PROTOCOL,
    RENDERED_FIELDS,
    TURN_FIELDS,
    merged_variables,
    prompt_entries,
)
from ...formatting.workspace_files import FileSource

if TYPE_CHECKING:
    from .base import SuiteProfile

# The keys of a rubric item that hold its text (2025's `rubrics`, a criterion's spellings).
_RUBRIC_TEXT_KEYS = ("outcome", "criteria", "expected_outcome", "description", "value")
# The fields a template pass renders that the linter reads as messages, not as templates.
_MESSAGE_FIELDS = ("input", "expected_output")
# Variables AgentV itself reads as the test's input and expected output: used without a template.
_READ_VARIABLES = ("input", "expected_output")


def lint_subject(
    profile: SuiteProfile,
    document: Any,
    header: dict[Any, Any],
    *,
    eval_path: str,
    files: FileSource | None = None,
    question: str = "",
) -> LintCase | None:
    """The case `document` of a file of `profile` whose top-level fields are `header` (merge
    keys merged, as `WorkspaceFormatter.file_header` gives them), as the linter reads it; None
    when it cannot be taken apart (formatting reports why). `files` resolve its attachments
    (None: not checked)."""
    if not isinstance(document, dict):
        return None
    try:
        parts = split_case(document)
    except EvalFileError:
        return None
    document = merged(document)
    variables: frozenset[str] | None = None
    own: tuple[str, ...] = ()
    templates: list[tuple[str, str]] = []
    if profile.expands_tests:  # the profile renders `{{ vars }}` in each test it makes
        variables, own, templates = _templates(document, header)
    return LintCase(
        case_id=parts.case_id,
        input_messages=tuple(parts.input_messages),
        expected_messages=tuple(parts.expected_messages),
        graded=_graded(parts.outcome, parts.evaluators, document, header),
        rubrics=tuple(_rubrics(parts.spelling.outcome_key, document)),
        variables=variables,
        own_variables=own,
        templates=tuple(templates),
        metadata=document.get("metadata"),
        question=question,
        eval_path=eval_path,
        attachments=tuple(_input_files(document)),
        files=files,
        role_order=profile.role_order,
    )


def case_lint(
    profile: SuiteProfile,
    document: Any,
    header: dict[Any, Any],
    *,
    eval_path: str,
    files: FileSource | None,
) -> tuple[dict[str, Any], ...]:
    """The findings of the one-case rules for `document`, as stored with its summary."""
    subject = lint_subject(profile, document, header, eval_path=eval_path, files=files)
    if subject is None:
        return ()
    return tuple(found.as_json() for found in lint_case(subject))


def _templates(
    document: dict[Any, Any], header: dict[Any, Any]
) -> tuple[frozenset[str], tuple[str, ...], list[tuple[str, str]]]:
    """The names templates may use, the case's own variables (empty when a prompt file may use
    them unseen) and the texts rendered besides the messages, by field."""
    names = set(map(str, merged_variables(document, header) or {}))
    own_value = document.get("vars")
    own = tuple(
        name
        for name in map(str, own_value if isinstance(own_value, dict) else ())
        if name not in _READ_VARIABLES
    )
    templates: list[tuple[str, str]] = []
    for name in RENDERED_FIELDS:
        if name not in _MESSAGE_FIELDS and name in document:
            templates.extend((name, text) for text in template_strings(document[name]))
    turns = document.get("turns")
    for index, turn in enumerate(turns if isinstance(turns, list) else ()):
        if isinstance(turn, dict):
            for name in TURN_FIELDS:
                field = f"turns[{index}].{name}"
                templates.extend((field, text) for text in template_strings(turn.get(name)))
    prompts = header.get("prompts")
    if prompts is not None:
        names.add("input")  # a test's input is the prompts' variable `input` (AgentV's rule)
        for index, entry in enumerate(prompt_entries(prompts)):
            texts = template_strings(entry)
            if any(text.startswith(FILE_PROTOCOL) for text in texts) or (
                isinstance(entry, dict) and "file" in entry
            ):
                own = ()  # a prompt file may use any variable
            templates.extend((f"prompts[{index}]", text) for text in texts)
    return frozenset(names), own, templates


def _graded(outcome: Any, evaluators: Any, document: dict[Any, Any], header: Any) -> bool:
    """Whether anything grades the case: an outcome or criteria, evaluators (its own or its
    file's), rubrics or asserts (its own, its turns' or, unless it skips them, its suite's).
    The file's are looked up last: most cases say on their own."""
    if isinstance(outcome, str) and outcome.strip():
        return True
    if evaluators or any(document.get(key) for key in OTHER_GRADING_KEYS):
        return True
    turns = document.get("turns")
    if isinstance(turns, list) and any(isinstance(t, dict) and t.get("assert") for t in turns):
        return True
    if not isinstance(header, dict):
        return False
    if evaluators is None and file_evaluators(header):
        return True
    execution = document.get("execution")
    if isinstance(execution, dict) and execution.get("skip_defaults") is True:
        return False
    default_test = header.get("default_test")
    return bool(
        header.get("assert") or (isinstance(default_test, dict) and default_test.get("assert"))
    )


def _rubrics(outcome_key: str, document: dict[Any, Any]) -> list[tuple[str, str]]:
    """The texts a judge grades the case against, each with its field."""
    found: list[tuple[str, str]] = []
    outcome = document.get(outcome_key)
    if isinstance(outcome, str) and outcome.strip():
        found.append((outcome_key, outcome))
    for key in ("rubrics", *OTHER_GRADING_KEYS):
        items = document.get(key)
        for index, item in enumerate(items if isinstance(items, list) else ()):
            field = f"{key}[{index}]"
            if isinstance(item, str):
                found.append((field, item))
            elif isinstance(item, Mapping) and _is_rubric(key, item):
                found.extend(
                    (f"{field}.{name}", item[name])
                    for name in _RUBRIC_TEXT_KEYS
                    if isinstance(item.get(name), str) and item[name].strip()
                )
    return list(dict.fromkeys(found))


def _is_rubric(key: str, item: Mapping[Any, Any]) -> bool:
    """A rubric item of `rubrics`, or an assert a judge grades by its text."""
    return key == "rubrics" or item.get("type") in ("llm-rubric", "rubrics", "rubric")


def _input_files(document: dict[Any, Any]) -> list[tuple[str, str]]:
    """The files of the case's `input_files` (today's AgentV attaches them to the input)."""
    value = document.get("input_files")
    items = value if isinstance(value, list) else []
    return [
        (f"input_files[{index}]", item)
        for index, item in enumerate(items)
        if isinstance(item, str) and item.strip() and "{{" not in item
    ]

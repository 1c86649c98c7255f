"""What the linter reads of a case, as its profile reads it: grading inherited from the file or
the suite, today's variables and prompts, rubrics and asserts (docs/user-guide.md, "Lint
rules")."""

from __future__ import annotations

from typing import Any

import pytest

from evals_app.formatting.lint import lint_case
from evals_app.formatting.workspace_files import MappingFiles
from evals_app.services.profiles import profile_named
from evals_app.services.profiles.linting import lint_subject

PROFILE_2025 = profile_named("agentv-2025")
PROFILE_2026 = profile_named("agentv-2026")


def rules(
    profile: Any, document: dict[str, Any], header: dict[str, Any] | None = None
) -> list[str]:
    subject = lint_subject(
        profile, document, header or {}, eval_path="evals/a.yaml", files=MappingFiles({})
    )
    assert subject is not None
    return [finding.rule for finding in lint_case(subject)]


QUESTION = [{"role": "user", "content": "What is the refund window for shoes?"}]

TABLE = [
    # (profile, case, header, rules found)
    (PROFILE_2025, {"id": "a", "input_messages": QUESTION}, {}, ["no-grader"]),
    (
        PROFILE_2025,
        {"id": "a", "input_messages": QUESTION},
        {"execution": {"evaluators": [{"type": "code", "script": "check.py"}]}},
        [],
    ),
    (
        PROFILE_2025,
        {"id": "a", "input_messages": QUESTION, "rubrics": ["Is correct"]},
        {},
        ["vague-rubric"],
    ),
    (PROFILE_2026, {"id": "a", "input": QUESTION}, {"assert": ["Names thirty days"]}, []),
    (
        PROFILE_2026,
        {"id": "a", "input": QUESTION, "execution": {"skip_defaults": True}},
        {"assert": ["Names thirty days"]},
        ["no-grader"],
    ),
    (
        PROFILE_2026,
        {"id": "a", "criteria": "Answers in {{ language }}", "vars": {"lang": "fr"}, "input": "Hi"},
        {},
        ["undefined-variable", "unused-variable"],
    ),
    (
        PROFILE_2026,
        {
            "id": "a",
            "criteria": "Answers in {{ lang }}",
            "vars": {"lang": ["fr", "de"]},
            "input": "Hi",
        },
        {},
        [],
    ),
    (
        PROFILE_2026,
        {"id": "a", "criteria": "Names the refund window", "input": "Refund for {{ item }}?"},
        {"prompts": ["Customer says: {{ input }}"], "default_test": {"vars": {"item": "shoes"}}},
        [],
    ),
    (
        PROFILE_2026,
        {
            "id": "greet-{{ lang }}",
            "criteria": "Greets the customer politely",
            "vars": {"lang": ["en", "fr"], "input": "Hello", "expected_output": "Hi!"},
        },
        {},
        [],
    ),
    (
        PROFILE_2026,
        {"id": "a", "assert": ["Good"], "input": "Hello there"},
        {},
        ["vague-rubric"],
    ),
    (
        PROFILE_2026,
        {
            "id": "a",
            "criteria": "Describes the picture",
            "input": "What is this?",
            "input_files": ["photo.png"],
        },
        {},
        ["missing-attachment"],
    ),
]


@pytest.mark.parametrize(("profile", "document", "header", "expected"), TABLE)
def test_the_profile_gives_the_linter_what_it_reads(
    profile: Any, document: dict[str, Any], header: dict[str, Any], expected: list[str]
) -> None:
    assert rules(profile, document, header) == expected


def test_a_case_that_cannot_be_taken_apart_is_not_linted() -> None:
    assert lint_subject(PROFILE_2025, {"input_messages": QUESTION}, {}, eval_path="a.yaml") is None

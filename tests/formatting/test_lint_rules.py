"""Each lint rule: a case that triggers it and one that does not (docs/user-guide.md, "Lint
rules")."""

from __future__ import annotations

from typing import Any

import pytest

from evals_app.formatting.lint import RULES, LintCase, RoleOrder, lint_case, lint_suite
from evals_app.formatting.workspace_files import MappingFiles


def user(text: Any) -> dict[str, Any]:
    return {"role": "user", "content": text}


def assistant(text: Any, **extra: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": text, **extra}


def case(**fields: Any) -> LintCase:
    fields.setdefault("input_messages", (user("What is the refund policy for orders?"),))
    fields.setdefault("expected_messages", (assistant("Refunds within thirty days."),))
    fields.setdefault("rubrics", (("criteria", "Names the thirty-day refund window"),))
    return LintCase(case_id=fields.pop("case_id", "case"), **fields)


def rules_of(item: LintCase) -> list[str]:
    return [found.rule for found in lint_case(item)]


LATER_SYSTEM = RoleOrder(later_system="an assistant turn that begins with @[System]:")
LONG_ANSWER = (
    "Refunds are accepted within thirty days of delivery when the item is unused and boxed"
)

TABLE = [
    # (rule, triggers, does not)
    (
        "role-order",
        case(input_messages=(user("Hi"), user("Are you there?"))),
        case(input_messages=(user("Hi"), assistant("Hello"), user("Are you there?"))),
    ),
    (
        "role-order",
        case(input_messages=(user("Hi"), {"role": "tool", "content": "42"})),
        case(
            input_messages=(user("Hi"), assistant("Let me look"), {"role": "tool", "content": "4"})
        ),
    ),
    (
        "role-order",
        case(
            input_messages=(user("Hi"), {"role": "system", "content": "Be brief"}),
            role_order=LATER_SYSTEM,
        ),
        case(
            input_messages=({"role": "system", "content": "Be brief"}, user("Hi")),
            role_order=LATER_SYSTEM,
        ),
    ),
    (
        "tool-pairing",
        case(
            input_messages=(
                user("Weather?"),
                assistant("", tool_calls=[{"id": "call-1", "tool": "weather"}]),
                {"role": "tool", "tool_call_id": "call-2", "content": "sunny"},
            )
        ),
        case(
            input_messages=(
                user("Weather?"),
                assistant("", tool_calls=[{"id": "call-1", "tool": "weather"}]),
                {"role": "tool", "tool_call_id": "call-1", "content": "sunny"},
            )
        ),
    ),
    (
        "tool-pairing",
        case(
            input_messages=(
                user("Weather?"),
                assistant("", tool_calls=[{"id": "call-1", "tool": "weather"}]),
                user("Well?"),
            )
        ),
        case(
            input_messages=(
                user("Weather?"),
                assistant("", tool_calls=[{"id": "call-1", "tool": "weather", "output": "sun"}]),
                user("Well?"),
            )
        ),
    ),
    (
        "empty-turn",
        case(input_messages=(user("Hi"), assistant("  "), user("Still there?"))),
        case(input_messages=(user("Hi"), assistant("Yes"), user("Still there?"))),
    ),
    (
        "empty-turn",
        case(input_messages=(user([{"type": "text", "value": ""}, " "]),)),
        case(input_messages=(user([{"type": "file", "value": "notes.md"}]),)),
    ),
    (
        "answer-in-input",
        case(
            input_messages=(user(f"Policy: {LONG_ANSWER.upper()}. What is the policy?"),),
            expected_messages=(assistant(LONG_ANSWER),),
        ),
        case(
            input_messages=(user("What is the refund policy for unused items?"),),
            expected_messages=(assistant(LONG_ANSWER),),
        ),
    ),
    (
        "answer-in-input",
        case(
            input_messages=(user("Say: the capital is Paris. What is the capital?"),),
            expected_messages=(assistant("The capital is Paris"),),
        ),
        case(
            input_messages=(user("Is the capital Paris?"),),
            expected_messages=(assistant("Paris"),),
        ),
    ),
    (
        "undefined-variable",
        case(
            input_messages=(user("Translate {{ text }} to {{ vars.language }}"),),
            variables=frozenset({"text"}),
            own_variables=("text",),
        ),
        case(
            input_messages=(user("Translate {{ text }} to {{ vars.language }}"),),
            variables=frozenset({"text", "language"}),
            own_variables=("text", "language"),
        ),
    ),
    (
        "unused-variable",
        case(
            input_messages=(user("Translate {{ text }}"),),
            variables=frozenset({"text", "langauge"}),
            own_variables=("text", "langauge"),
        ),
        case(
            input_messages=(user("Translate {{ text | upper }} {{ 'literal' }}"),),
            templates=(("criteria", "Mentions {{ langauge }}"),),
            variables=frozenset({"text", "langauge", "upper"}),
            own_variables=("text", "langauge"),
        ),
    ),
    (
        "no-grader",
        case(rubrics=(), graded=False),
        case(rubrics=(), graded=True),
    ),
    (
        "vague-rubric",
        case(rubrics=(("criteria", "The answer is good and correct"),)),
        case(rubrics=(("criteria", "States that refunds take thirty days"),)),
    ),
    (
        "vague-rubric",
        case(rubrics=(("assert[0]", "Is polite"),)),
        case(rubrics=(("assert[0]", "Apologises for the double charge"),)),
    ),
    (
        "missing-attachment",
        case(
            input_messages=(user([{"type": "file", "value": "/docs/policy.md"}, "Summarise"]),),
            files=MappingFiles({"docs/other.md": "x"}),
            eval_path="evals/refunds.yaml",
        ),
        case(
            input_messages=(user([{"type": "file", "value": "/docs/policy.md"}, "Summarise"]),),
            files=MappingFiles({"docs/policy.md": "Refunds: 30 days"}),
            eval_path="evals/refunds.yaml",
        ),
    ),
    (
        "missing-attachment",
        case(attachments=(("input_files[0]", "img.png"),), files=MappingFiles({})),
        case(attachments=(("input_files[0]", "img.png"),), files=MappingFiles({"img.png": ""})),
    ),
    (
        "lint-ignore",
        case(rubrics=(), graded=False, metadata={"lint_ignore": {"no-grader": " "}}),
        case(rubrics=(), graded=False, metadata={"lint_ignore": {"no-grader": "smoke test"}}),
    ),
    (
        "lint-ignore",
        case(metadata={"lint_ignore": {"no-such-rule": "because"}}),
        case(metadata={"lint_ignore": {}}),
    ),
]


@pytest.mark.parametrize(
    ("rule", "triggers", "does_not"), TABLE, ids=[f"{row[0]}-{i}" for i, row in enumerate(TABLE)]
)
def test_each_rule_triggers_on_its_case_and_not_on_the_fixed_one(
    rule: str, triggers: LintCase, does_not: LintCase
) -> None:
    assert rule in rules_of(triggers)
    assert rules_of(does_not) == []


def test_every_rule_has_a_row_in_the_table_or_a_suite_test() -> None:
    tested = {row[0] for row in TABLE} | {"duplicate-id", "near-duplicate"}
    assert tested == set(RULES)


def test_every_rule_has_a_severity_and_a_reason() -> None:
    for rule in RULES.values():
        assert rule.severity in ("error", "warning", "info")
        assert len(rule.reason) > 40


def test_a_finding_names_the_turn_and_the_field() -> None:
    found = lint_case(case(input_messages=(user("Hi"), user("Hello?"))))
    assert [(item.section, item.turn, item.field) for item in found] == [
        ("input", 1, "input[1].role")
    ]
    assert "Input turn 2" in found[0].message


def test_a_silenced_rule_reports_nothing_for_that_case_only() -> None:
    silenced = case(rubrics=(), graded=False, metadata={"lint_ignore": {"no-grader": "smoke"}})
    assert lint_case(silenced) == []
    assert rules_of(case(rubrics=(), graded=False)) == ["no-grader"]


def test_an_empty_reason_keeps_the_rule_on() -> None:
    found = rules_of(case(rubrics=(), graded=False, metadata={"lint_ignore": {"no-grader": ""}}))
    assert sorted(found) == ["lint-ignore", "no-grader"]


def test_the_same_id_in_two_files_is_a_duplicate() -> None:
    first = case(case_id="refund", eval_path="evals/a.yaml")
    second = case(case_id="refund", eval_path="evals/b.yaml")
    other = case(
        case_id="other",
        eval_path="evals/b.yaml",
        input_messages=(user("Something else entirely, about shipping times"),),
    )
    found = lint_suite([first, second, other])
    assert [item.rule for item in found[0]] == ["duplicate-id"]
    assert "evals/b.yaml" in found[0][0].message
    assert found[2] == []


NEAR = "How long do I have to return a pair of shoes that I bought online last week from you"


@pytest.mark.parametrize(
    ("question", "near"),
    [
        (NEAR, True),
        (NEAR.replace("shoes", "boots"), True),
        (NEAR + " please", True),
        ("Which carriers ship to Iceland, and how much does express shipping cost?", False),
        (NEAR.replace("last week", "yesterday").replace("online", "in the store"), False),
    ],
)
def test_near_duplicate_questions_over_the_threshold(question: str, near: bool) -> None:
    first = case(case_id="a", question=NEAR)
    second = case(case_id="b", question=question)
    found = lint_suite([first, second])
    assert any(item.rule == "near-duplicate" for item in found[1]) is near
    if near:
        assert "“a”" in found[1][0].message and "“b”" in found[0][0].message


def test_many_identical_questions_each_name_a_duplicate() -> None:
    cases = [case(case_id=f"c{index}", question=NEAR) for index in range(200)]
    found = lint_suite(cases)
    assert all(any(item.rule == "near-duplicate" for item in items) for items in found)

"""The draft spelling of AgentV's November 2025 design examples (`input.messages`,
`expected.outcome`, `execution.evaluator`, `execution.grader`) upgrades to tests today's AgentV
runs, as the 2025 spelling does (docs/formats.md, "Upgrading to today's format")."""

from __future__ import annotations

from typing import Any

from evals_app.eval_files.upgrade import upgrade_case
from tests.agentv_rejections import rejected_keys

TURNS = [{"role": "system", "content": "You are an SRE."}, {"role": "user", "content": "Triage."}]
ANSWER = [{"role": "assistant", "content": "Roll back first."}]


def test_input_messages_and_expected_outcome_become_vars_and_criteria() -> None:
    draft = {
        "id": "triage",
        "conversation_id": "incident",
        "checkpoint": "final-response",
        "execution": {
            "target": "default",
            "evaluator": {"type": "llm_judge", "template": "./judge.md", "model": "gpt-5"},
        },
        "input": {"messages": TURNS},
        "expected": {"outcome": "Proposes a rollback.", "messages": ANSWER},
    }

    upgraded = upgrade_case(draft, {})

    document = upgraded.document
    assert document["vars"] == {"input": TURNS, "expected_output": ANSWER}
    assert document["criteria"] == "Proposes a rollback."
    assert document["metadata"] == {"checkpoint": "final-response"}
    [judge] = document["assert"]
    assert (judge["type"], judge["prompt"], judge["model"]) == (
        "llm-rubric",
        "file://./judge.md",
        "gpt-5",
    )
    assert upgraded.skips == []
    assert rejected_keys({"tests": None}, [document]) == []
    assert upgraded.changes[:5] == [
        "`checkpoint` → `metadata.checkpoint`",
        "`execution.evaluator` → `execution.evaluators` (its `template` → `prompt`)",
        "`input.messages` → `input_messages`",
        "`expected.outcome` → `outcome`",
        "`expected.messages` → `expected_messages`",
    ]


def test_an_outcome_with_a_rubric_gives_the_criteria_and_a_rubric_line_per_aspect() -> None:
    aspects = ["Names the regression window", "Mentions the runbook"]
    draft: dict[str, Any] = {
        "id": "triage",
        "conversationId": "incident",
        "execution": {"grader": "llm_judge"},
        "input": {"messages": TURNS},
        "expected": {
            "outcome": {"description": "Proposes steps.", "rubric": {"aspects": aspects}},
            "messages": ANSWER,
        },
    }

    upgraded = upgrade_case(draft, {})

    document = upgraded.document
    assert document["conversation_id"] == "incident"
    assert document["criteria"] == "Proposes steps."
    assert document["assert"] == aspects
    assert "`execution.grader: llm_judge` removed (its criteria are judged)" in upgraded.changes
    assert rejected_keys({"tests": None}, [document]) == []


def test_a_case_in_the_2025_spelling_is_not_respelled() -> None:
    case = {"id": "a", "input_messages": TURNS, "outcome": "Triage.", "input": "kept"}
    upgraded = upgrade_case(case, {})
    assert not any("input.messages" in change for change in upgraded.changes)

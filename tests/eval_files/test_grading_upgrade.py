"""The evaluators today's AgentV removed, upgraded as its own migration messages say
(docs/formats.md, "Upgrading to today's format"): one table row per conversion, and what
has no equivalent reported per case."""

from __future__ import annotations

from typing import Any

import pytest

from evals_app.eval_files.upgrade import upgrade_case, upgrade_eval_file
from evals_app.formatting.profile_2026 import format_tests_2026
from evals_app.formatting.workspace_files import MappingFiles

QUESTION = [{"role": "user", "content": "Book a flight."}]


def upgraded_asserts(evaluator: dict[str, Any], **case: Any) -> list[Any]:
    document = {"id": "a", "input_messages": QUESTION, **case, "evaluators": [evaluator]}
    upgraded = upgrade_case(document)
    assert upgraded.skips == []
    return list(upgraded.document["assert"])


# (conversion, 2025 evaluator, today's asserts)
CONVERSIONS: list[tuple[str, dict[str, Any], list[Any]]] = [
    (
        "any_order minimums become one trajectory:tool-used per tool, the weight shared",
        {"name": "t", "type": "tool_trajectory", "mode": "any_order", "minimums": {"s": 2, "r": 1}},
        [
            {
                "type": "trajectory:tool-used",
                "value": {"name": "s", "min": 2},
                "metric": "t-1",
                "weight": 0.5,
            },
            {
                "type": "trajectory:tool-used",
                "value": {"name": "r", "min": 1},
                "metric": "t-2",
                "weight": 0.5,
            },
        ],
    ),
    (
        "in_order expected calls become a trajectory:tool-sequence",
        {"type": "tool_trajectory", "mode": "in_order", "expected": [{"tool": "a"}, {"tool": "b"}]},
        [{"type": "trajectory:tool-sequence", "value": {"mode": "in_order", "steps": ["a", "b"]}}],
    ),
    (
        "exact calls with arguments add a trajectory:tool-args-match per call",
        {
            "type": "tool_trajectory",
            "mode": "exact",
            "weight": 2,
            "expected": [{"tool": "a", "args": {"q": "x"}}, {"tool": "b", "args": "any"}],
        },
        [
            {
                "type": "trajectory:tool-sequence",
                "value": {"mode": "exact", "steps": ["a", "b"]},
                "weight": 1,
            },
            {
                "type": "trajectory:tool-args-match",
                "value": {"name": "a", "args": {"q": "x"}, "mode": "exact"},
                "weight": 1,
            },
        ],
    ),
    (
        "args_match superset is a partial argument match, a field list the fields only",
        {
            "type": "tool_trajectory",
            "mode": "in_order",
            "args_match": "superset",
            "expected": [
                {"tool": "a", "args": {"q": "x"}},
                {"tool": "b", "args": {"q": "y", "n": 1}, "args_match": ["q"]},
            ],
        },
        [
            {
                "type": "trajectory:tool-sequence",
                "value": {"mode": "in_order", "steps": ["a", "b"]},
                "weight": 0.333333,
            },
            {
                "type": "trajectory:tool-args-match",
                "value": {"name": "a", "args": {"q": "x"}, "mode": "partial"},
                "weight": 0.333333,
            },
            {
                "type": "trajectory:tool-args-match",
                "value": {"name": "b", "args": {"q": "y"}, "mode": "partial"},
                "weight": 0.333333,
            },
        ],
    ),
    (
        "field_accuracy becomes field-accuracy",
        {"type": "field_accuracy", "fields": [{"path": "a.b", "match": "exact"}]},
        [{"type": "field-accuracy", "fields": [{"path": "a.b", "match": "exact"}]}],
    ),
    (
        "a code judge's target becomes its provider",
        {"type": "code_judge", "script": "uv run c.py", "target": {"max_calls": 3}},
        [{"type": "script", "command": ["uv", "run", "c.py"], "provider": {"max_calls": 3}}],
    ),
    (
        "a composite becomes an assert-set, members converted, weights on the members",
        {
            "name": "gate",
            "type": "composite",
            "evaluators": [
                {"name": "s", "type": "llm_judge", "prompt": "Safe?\n"},
                {"name": "q", "type": "code", "script": "q.py"},
            ],
            "aggregator": {"type": "weighted_average", "weights": {"s": 0.3, "q": 0.7}},
        },
        [
            {
                "name": "gate",
                "type": "assert-set",
                "assert": [
                    {"name": "s", "type": "llm-rubric", "value": "Safe?\n", "weight": 0.3},
                    {"name": "q", "type": "script", "command": ["q.py"], "weight": 0.7},
                ],
            }
        ],
    ),
    (
        "a threshold aggregator keeps its threshold",
        {
            "type": "composite",
            "evaluators": [{"type": "contains", "value": "x"}],
            "aggregator": {"type": "threshold", "threshold": 0.5},
        },
        [{"type": "assert-set", "assert": [{"type": "contains", "value": "x"}], "threshold": 0.5}],
    ),
    (
        "an llm_judge without a prompt grades the case's criteria as its value",
        {"name": "j", "type": "llm_judge"},
        [{"name": "j", "type": "llm-rubric", "value": "Books it."}],
    ),
    (
        "an llm_judge with a prompt file gets the criteria as its value too",
        {"type": "llm_judge", "prompt": "judges/g.md"},
        [{"type": "llm-rubric", "prompt": "file://judges/g.md", "value": "Books it."}],
    ),
]


@pytest.mark.parametrize(
    ("evaluator", "today"), [row[1:] for row in CONVERSIONS], ids=[row[0] for row in CONVERSIONS]
)
def test_each_removed_evaluator_is_converted(evaluator: dict[str, Any], today: list[Any]) -> None:
    assert upgraded_asserts(evaluator, outcome="Books it.") == today


def test_a_judge_without_prompt_or_criteria_grades_against_the_reference_answer() -> None:
    answer = [{"role": "assistant", "content": "Booked."}]
    asserts = upgraded_asserts({"type": "llm_judge"}, expected_messages=answer)

    assert asserts == [
        {"type": "llm-rubric", "value": "Matches the reference answer: {{ expected_output }}"}
    ]


def test_field_options_today_s_agentv_ignores_are_noted() -> None:
    evaluator = {
        "type": "field_accuracy",
        "fields": [{"path": "name", "match": "fuzzy", "threshold": 0.8}],
    }
    upgraded = upgrade_case({"id": "a", "input": "Hi", "evaluators": [evaluator]})

    assert upgraded.document["assert"][0]["type"] == "field-accuracy"
    assert any("`match: fuzzy` is not read by today's AgentV" in n for n in upgraded.notes)
    assert any("`threshold` ignored by today's AgentV" in n for n in upgraded.notes)


# (what has no equivalent, 2025 evaluator, the reason reported)
UNCONVERTIBLE: list[tuple[str, dict[str, Any], str]] = [
    (
        "a code judge aggregator",
        {
            "type": "composite",
            "evaluators": [{"type": "llm_judge", "prompt": "Safe?\n"}],
            "aggregator": {"type": "code_judge", "path": "node agg.js"},
        },
        "`aggregator` of type 'code_judge'",
    ),
    (
        "a composite member with no equivalent",
        {
            "type": "composite",
            "evaluators": [{"type": "tool_trajectory", "mode": "subset", "expected": []}],
        },
        "mode 'subset'",
    ),
    (
        "an llm_judge with nothing to grade against",
        {"type": "llm_judge"},
        "no criteria or expected answer",
    ),
]


@pytest.mark.parametrize(
    ("evaluator", "reason"),
    [row[1:] for row in UNCONVERTIBLE],
    ids=[row[0] for row in UNCONVERTIBLE],
)
def test_what_has_no_equivalent_is_kept_and_reported(
    evaluator: dict[str, Any], reason: str
) -> None:
    upgraded = upgrade_case({"id": "a", "input": "Hi", "evaluators": [evaluator]})

    [skip] = upgraded.skips
    assert reason in skip
    if evaluator["type"] != "llm_judge":
        assert upgraded.document["assert"] == [evaluator]


def test_a_tool_trajectory_with_latency_budgets_keeps_its_calls_and_names_each_budget() -> None:
    evaluator = {
        "name": "fast",
        "type": "tool_trajectory",
        "mode": "in_order",
        "expected": [
            {"tool": "search", "args": {"q": "Paris"}, "max_duration_ms": 500},
            {"tool": "answer"},
        ],
    }
    upgraded = upgrade_case({"id": "a", "input": "Hi", "evaluators": [evaluator]})

    assert upgraded.skips == []
    assert upgraded.document["assert"] == [
        {
            "type": "trajectory:tool-sequence",
            "value": {"mode": "in_order", "steps": ["search", "answer"]},
            "metric": "fast-1",
            "weight": 0.5,
        },
        {
            "type": "trajectory:tool-args-match",
            "value": {"name": "search", "args": {"q": "Paris"}, "mode": "exact"},
            "metric": "fast-2",
            "weight": 0.5,
        },
    ]
    assert (
        "AgentV will not check the per-tool latency budgets (search within 500 ms): today's "
        "AgentV has no per-tool latency check; the tool calls are still checked"
    ) in upgraded.notes


def test_a_skip_is_named_first_among_the_case_s_notes_of_the_file() -> None:
    evaluator = {
        "type": "composite",
        "evaluators": [{"type": "llm_judge", "prompt": "Safe?\n"}],
        "aggregator": {"type": "code_judge", "path": "node agg.js"},
    }
    case = {"id": "slow", "input": "Hi", "evaluators": [evaluator]}
    upgraded = upgrade_eval_file({"evalcases": None}, [case], "evalcases")

    assert upgraded.all_notes()[0].startswith("slow: AgentV will skip this test: ")


def test_members_prompt_files_are_referred_to_by_their_upgraded_paths() -> None:
    evaluator = {
        "type": "composite",
        "evaluators": [{"type": "llm_judge", "prompt": "./p/safe.md"}],
    }
    upgraded = upgrade_case(
        {"id": "a", "input": "Hi", "outcome": "Safe.", "evaluators": [evaluator]},
        {"./p/safe.md": "./p/safe.v2026.md"},
    )

    [member] = upgraded.document["assert"][0]["assert"]
    assert member["prompt"] == "file://./p/safe.v2026.md"


def test_a_test_s_target_joins_the_file_s_providers_never_a_grader_s_provider() -> None:
    cases = [
        {"id": "a", "input": "Hi", "outcome": "Ok.", "execution": {"target": "mock"}},
        {"id": "b", "input": "Hi", "outcome": "Ok."},
    ]
    upgraded = upgrade_eval_file({"target": "default", "evalcases": None}, cases, "evalcases")

    assert upgraded.header["providers"] == ["default", "mock"]
    assert all("options" not in document for document in upgraded.documents)
    assert any("AgentV runs every test against each" in note for note in upgraded.notes)


def test_a_file_judge_without_prompt_alone_is_left_to_agentv_s_criteria_grading() -> None:
    header = {"execution": {"evaluators": [{"name": "j", "type": "llm_judge"}]}, "evalcases": None}
    upgraded = upgrade_eval_file(
        header, [{"id": "a", "input": "Hi", "outcome": "Ok."}], "evalcases"
    )

    assert "assert" not in upgraded.header
    assert upgraded.documents[0]["criteria"] == "Ok."
    assert "assert" not in upgraded.documents[0]


def test_a_file_judge_without_prompt_beside_other_asserts_grades_each_test_s_criteria() -> None:
    evaluators = [{"type": "code", "script": "c.py"}, {"name": "j", "type": "llm_judge"}]
    header = {"execution": {"evaluators": evaluators}, "evalcases": None}
    cases = [
        {"id": "a", "input": "Hi", "outcome": "Polite."},
        {
            "id": "b",
            "input": "Hi",
            "outcome": "Own.",
            "evaluators": [{"type": "code", "script": "b.py"}],
        },
    ]
    upgraded = upgrade_eval_file(header, cases, "evalcases")

    assert upgraded.header["assert"] == [{"type": "script", "command": ["c.py"]}]
    assert upgraded.documents[0]["assert"] == [
        {"name": "j", "type": "llm-rubric", "value": "Polite."}
    ]
    assert upgraded.documents[1]["assert"] == [{"type": "script", "command": ["b.py"]}]


@pytest.mark.parametrize(
    ("item", "today"),
    [
        (
            {"id": "r", "score_ranges": {0: "No.", 5: "Yes."}, "weight": 2},
            {
                "type": "llm-rubric",
                "value": [{"id": "r", "score_ranges": {0: "No.", 5: "Yes."}, "weight": 2}],
                "weight": 2,
            },
        ),
        (
            {"id": "r", "description": "Clear.", "score_ranges": {0: "No."}},
            {"type": "llm-rubric", "value": "Clear.", "id": "r", "score_ranges": {0: "No."}},
        ),
        (
            {"type": "llm-rubric", "value": "Kept.", "score_ranges": {0: "No."}},
            {"type": "llm-rubric", "value": "Kept.", "score_ranges": {0: "No."}},
        ),
    ],
    ids=["without text: the item is the value", "with text: its value", "with a type: kept"],
)
def test_score_range_rubrics_become_llm_rubrics_agentv_reads(
    item: dict[Any, Any], today: dict[Any, Any]
) -> None:
    upgraded = upgrade_case({"id": "a", "input": "Hi", "rubrics": [item]})

    assert upgraded.document["assert"] == [today]


def today_s_warnings(evaluator: dict[str, Any], **case: Any) -> list[str]:
    """The AgentV skip warnings of the upgraded test, as the 2026 formatting gives them."""
    older = {"id": "a", "input": "Hi", **case, "evaluators": [evaluator]}
    [test] = format_tests_2026(
        upgrade_case(older).document,
        {"prompts": ["{{ input }}"]},
        eval_path="evals/suite.yaml",
        files=MappingFiles({"evals/judges/g.md": "Grade {{ output }}"}),
    )
    return [w.message for w in test.warnings if w.code == "agentv_skips_test"]


@pytest.mark.parametrize(
    "evaluator", [row[1] for row in CONVERSIONS], ids=[row[0] for row in CONVERSIONS]
)
def test_a_converted_evaluator_draws_no_skip_warning(evaluator: dict[str, Any]) -> None:
    assert today_s_warnings(evaluator, outcome="Books it.") == []


@pytest.mark.parametrize(
    "evaluator", [row[1] for row in UNCONVERTIBLE], ids=[row[0] for row in UNCONVERTIBLE]
)
def test_what_the_upgrade_keeps_is_warned_without_advising_the_upgrade(
    evaluator: dict[str, Any],
) -> None:
    [warning] = today_s_warnings(evaluator)

    assert "AgentV skips this" in warning
    assert "Upgrade to today's format" not in warning


def test_a_case_with_its_own_evaluators_skips_the_file_s_as_it_did() -> None:
    header = {"evaluators": [{"type": "code", "script": "file.py"}], "evalcases": None}
    cases = [
        {"id": "own", "input": "Hi", "evaluators": [{"type": "code", "script": "own.py"}]},
        {"id": "file", "input": "Hi"},
    ]
    upgraded = upgrade_eval_file(header, cases, "evalcases")

    own, file_graded = upgraded.documents
    assert own["execution"] == {"skip_defaults": True}
    assert "execution" not in file_graded

"""How each kind of AgentV grading becomes promptfoo asserts (docs/exports.md, "Asserts"): the
same type where promptfoo has it, and what it has not kept in `metadata.agentv_unsupported`
with a warning naming the case and the field."""

from __future__ import annotations

from typing import Any

import pytest

from tests.eval_files.export_formats_helpers import PATH, promptfoo

# (AgentV assert, promptfoo assert or None when it has none)
CONVERTED: list[tuple[Any, Any]] = [
    ("Greets politely", {"type": "llm-rubric", "value": "Greets politely"}),
    ({"type": "contains", "value": "tea"}, {"type": "contains", "value": "tea"}),
    ({"type": "icontains", "value": "Tea"}, {"type": "icontains", "value": "Tea"}),
    ({"type": "equals", "value": "49"}, {"type": "equals", "value": "49"}),
    ({"type": "regex", "value": "^4\\d$"}, {"type": "regex", "value": "^4\\d$"}),
    ({"type": "starts-with", "value": "Yes"}, {"type": "starts-with", "value": "Yes"}),
    ({"type": "contains-any", "value": ["a", "b"]}, {"type": "contains-any", "value": ["a", "b"]}),
    ({"type": "is-json"}, {"type": "is-json"}),
    ({"type": "not-contains", "value": "sorry"}, {"type": "not-contains", "value": "sorry"}),
    ({"type": "ends-with", "value": "(ok)."}, {"type": "regex", "value": "\\(ok\\)\\.$"}),
    (
        {"type": "llm-rubric", "value": "Polite", "weight": 2, "threshold": 0.5},
        {"type": "llm-rubric", "value": "Polite", "weight": 2, "threshold": 0.5},
    ),
    (
        {"type": "llm-rubric", "value": ["Polite", "Brief"]},
        {"type": "llm-rubric", "value": "- Polite\n- Brief"},
    ),
    (
        {"type": "equals", "value": "x", "name": "exact"},
        {"type": "equals", "value": "x", "metric": "exact"},
    ),
    (
        {"type": "trajectory:tool-used", "value": {"name": "search", "min": 1}},
        {"type": "trajectory:tool-used", "value": {"name": "search", "min": 1}},
    ),
    (
        {"type": "assert-set", "assert": [{"type": "contains", "value": "a"}, "Kind"]},
        {
            "type": "assert-set",
            "assert": [
                {"type": "contains", "value": "a"},
                {"type": "llm-rubric", "value": "Kind"},
            ],
        },
    ),
]


@pytest.mark.parametrize(("agentv", "expected"), CONVERTED)
def test_an_assert_promptfoo_has_keeps_its_type(agentv: Any, expected: Any) -> None:
    config, warnings = promptfoo([{"id": "t", "vars": {"input": "Hi"}, "assert": [agentv]}])

    (test,) = config["tests"]
    assert test["assert"] == [expected]
    assert "agentv_unsupported" not in test["metadata"]
    assert warnings == []


# (AgentV assert, the field the warning names)
UNSUPPORTED: list[tuple[Any, str]] = [
    ({"type": "script", "command": ["python", "check.py"]}, "assert[0]"),
    ({"type": "field-accuracy", "fields": [{"path": "a"}]}, "assert[0]"),
    ({"type": "llm-rubric", "prompt": "file://judges/a.md"}, "assert[0].prompt"),
    ({"type": "llm-rubric", "value": {"score_ranges": {"0": "bad"}}}, "assert[0].value"),
    ({"type": "assert-set", "assert": [{"type": "script", "command": "x"}]}, "assert[0]"),
    ({"value": "no type"}, "assert[0]"),
]


@pytest.mark.parametrize(("agentv", "field"), UNSUPPORTED)
def test_an_assert_promptfoo_lacks_is_kept_in_metadata_with_a_warning(
    agentv: Any, field: str
) -> None:
    config, warnings = promptfoo([{"id": "t", "vars": {"input": "Hi"}, "assert": [agentv]}])

    (test,) = config["tests"]
    assert "assert" not in test
    assert test["metadata"]["agentv_unsupported"] == {"assert[0]": agentv}
    assert any(
        warning.startswith(f'{PATH}: case "t", `{field}`') and "agentv_unsupported" in warning
        for warning in warnings
    ), warnings


def test_a_key_promptfoo_lacks_leaves_the_assert_and_keeps_the_original() -> None:
    agentv = {"type": "llm-rubric", "value": "Polite", "required": True}
    config, warnings = promptfoo([{"id": "t", "vars": {"input": "Hi"}, "assert": [agentv]}])

    (test,) = config["tests"]
    assert test["assert"] == [{"type": "llm-rubric", "value": "Polite"}]
    assert test["metadata"]["agentv_unsupported"] == {"assert[0]": agentv}
    assert warnings == [
        f'{PATH}: case "t", `assert[0].required`: promptfoo\'s `llm-rubric` assert has no '
        "`required`; kept in metadata.agentv_unsupported"
    ]


def test_criteria_alone_are_one_rubric_as_agentv_grades_them() -> None:
    config, warnings = promptfoo([{"id": "t", "vars": {"input": "Hi"}, "criteria": "Greets"}])

    assert config["tests"][0]["assert"] == [{"type": "llm-rubric", "value": "Greets"}]
    assert warnings == []


def test_criteria_beside_asserts_are_kept_in_metadata_with_a_warning() -> None:
    case = {"id": "t", "vars": {"input": "Hi"}, "criteria": "Greets", "assert": ["Kind"]}
    config, warnings = promptfoo([case])

    assert config["tests"][0]["metadata"]["criteria"] == "Greets"
    assert warnings == [
        f'{PATH}: case "t", `criteria`: promptfoo\'s judges do not read the criteria; kept in '
        "metadata.criteria"
    ]


def test_the_suites_asserts_are_the_default_test_and_skipping_them_disables_them() -> None:
    header = {
        "prompts": ["{{ input }}"],
        "default_test": {"vars": {"shop": "Tea & Co"}, "assert": ["Polite"]},
        "assert": [{"type": "contains", "value": "tea"}],
        "tests": [None, None],
    }
    cases = [
        {"id": "a", "vars": {"input": "Hi"}},
        {"id": "b", "vars": {"input": "Hi"}, "execution": {"skip_defaults": True}},
    ]
    config, warnings = promptfoo(cases, header=header)

    assert config["defaultTest"] == {
        "vars": {"shop": "Tea & Co"},
        "assert": [
            {"type": "llm-rubric", "value": "Polite"},
            {"type": "contains", "value": "tea"},
        ],
    }
    first, second = config["tests"]
    assert "shop" not in first["vars"]  # given by defaultTest
    assert "options" not in first
    assert second["options"] == {"disableDefaultAsserts": True}
    assert warnings == []


# 2025 evaluators, upgraded as the suite's upgrade would, then mapped.
OLDER_GRADING: list[tuple[dict[str, Any], list[Any], list[str]]] = [
    (
        {"name": "judge", "type": "llm_judge"},
        [{"type": "llm-rubric", "value": "Answers", "metric": "judge"}],
        [],
    ),
    (
        {"name": "check", "type": "code_judge", "script": "uv run check.py"},
        [],
        ["assert[0]"],
    ),
    (
        {
            "name": "tools",
            "type": "tool_trajectory",
            "mode": "any_order",
            "minimums": {"search": 1},
        },
        [
            {
                "type": "trajectory:tool-used",
                "value": {"name": "search", "min": 1},
                "metric": "tools",
            }
        ],
        [],
    ),
]


@pytest.mark.parametrize(("evaluator", "expected", "fields"), OLDER_GRADING)
def test_an_older_suites_evaluators_are_upgraded_then_mapped(
    evaluator: dict[str, Any], expected: list[Any], fields: list[str]
) -> None:
    header = {"$schema": "agentv-eval-v2", "evalcases": [None]}
    case = {
        "id": "old",
        "outcome": "Answers",
        "input_messages": [{"role": "user", "content": "Q?"}],
        "execution": {"evaluators": [evaluator]},
    }
    config, warnings = promptfoo([case], header=header, older=True)

    (test,) = config["tests"]
    assert test["vars"]["messages"] == [{"role": "user", "content": "Q?"}]
    assert test.get("assert", []) == expected
    for field in fields:
        assert any(f'case "old", `{field}`' in warning for warning in warnings), warnings


def test_a_judge_with_only_a_prompt_template_grades_the_criteria() -> None:
    judge = {"type": "llm-rubric", "prompt": "file://judges/answer.md"}
    case = {"id": "t", "vars": {"input": "7 * 7?"}, "criteria": "Answers 49", "assert": [judge]}
    config, warnings = promptfoo([case])

    (test,) = config["tests"]
    assert test["assert"] == [{"type": "llm-rubric", "value": "Answers 49"}]
    assert test["metadata"]["agentv_unsupported"] == {"assert[0]": judge}
    assert (
        f'{PATH}: case "t", `assert[0].prompt`: promptfoo\'s `llm-rubric` assert has no '
        "`prompt`; kept in metadata.agentv_unsupported"
    ) in warnings

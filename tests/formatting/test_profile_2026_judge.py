"""The judge prompts of the AgentV 2026 profile (docs/formatting.md, "The AgentV 2026 profile",
step 6)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from evals_app.formatting.profile_2026 import FormattedTest, format_tests_2026
from evals_app.formatting.profile_2026.judge import CHECKLIST_CLOSING, CHECKLIST_INTRODUCTION
from evals_app.formatting.workspace_files import MappingFiles

EVAL_PATH = "evals/t.eval.yaml"
FILES = {
    "judges/custom.md": (
        "Task: {{input}}\nGoal: {{ criteria }}\nRef: {{expected_output}}\n"
        "Answer: {{output}}\nKeep {{other}}"
    ),
    "judges/no-placeholder.md": "Grade the answer to {{input}}.",
}


def formatted(
    header: dict[str, Any] | None = None, candidate: str | None = None, **test: Any
) -> FormattedTest:
    document = {"id": "t", "vars": {"input": "What is 2+2?"}, **test}
    [result] = format_tests_2026(
        document,
        {"prompts": ["{{ input }}"], **(header or {})},
        eval_path=EVAL_PATH,
        files=MappingFiles(FILES),
        candidate_answer=candidate,
    )
    return result


def sections(prompt: str) -> list[str]:
    return re.findall(r"^\[\[ ## (\w+) ## \]\]$", prompt, re.MULTILINE)


def test_a_test_without_assert_is_not_graded() -> None:
    result = formatted()
    assert result.evaluator_prompt is None
    assert result.judges == ()
    assert result.graded is False


def test_bare_strings_form_one_checklist_at_the_first_strings_place() -> None:
    result = formatted(
        criteria="Adds correctly.",
        assert_=None,
        **{"assert": ["Says 4", {"type": "contains", "value": "4"}, "Is brief"]},
    )
    assert [judge.label for judge in result.judges] == ["rubric items", "contains"]
    assert result.judges[1].prompt is None
    assert result.evaluator_prompt == "\n".join(
        [
            CHECKLIST_INTRODUCTION,
            "",
            "[[ ## question ## ]]",
            "What is 2+2?",
            "",
            "[[ ## criteria ## ]]",
            "Adds correctly.",
            "",
            "[[ ## answer ## ]]",
            "{{candidate_answer}}",
            "",
            "[[ ## rubrics ## ]]",
            "- [rubric-1] (REQUIRED): Says 4",
            "- [rubric-2] (REQUIRED): Is brief",
            "",
            CHECKLIST_CLOSING,
        ]
    )


def test_reference_answer_section_only_when_non_empty() -> None:
    with_reference = formatted(expected_output="4", **{"assert": ["Says 4"]})
    without = formatted(expected_output="  ", **{"assert": ["Says 4"]})
    assert sections(with_reference.evaluator_prompt or "") == [
        "question",
        "criteria",
        "reference_answer",
        "answer",
        "rubrics",
    ]
    assert sections(without.evaluator_prompt or "") == ["question", "criteria", "answer", "rubrics"]


def test_llm_rubric_with_text_is_a_checklist() -> None:
    result = formatted(**{"assert": [{"type": "llm-rubric", "value": "Explains the sum"}]})
    assert "- [rubric-1] (REQUIRED): Explains the sum" in (result.evaluator_prompt or "")


def test_llm_rubric_prompt_file_is_the_template_filled_in_one_pass() -> None:
    result = formatted(
        criteria="Correct sum",
        expected_output="4",
        candidate="It is {{criteria}} 4",
        **{
            "assert": [
                {"type": "llm-rubric", "prompt": "file://judges/custom.md", "value": "Sums."}
            ]
        },
    )
    assert result.evaluator_prompt == (
        "Task: What is 2+2?\nGoal: Correct sum\nRef: 4\n"
        "Answer: It is {{criteria}} 4\nKeep {{other}}"
    )
    # A test's own `expected_output` fills the template, but AgentV refuses it today.
    assert [warning.code for warning in result.warnings] == ["agentv_refuses_file"]


def test_a_reference_kept_in_vars_does_not_reach_a_judge_templates_expected_output() -> None:
    result = formatted(
        vars={"input": "What is 2+2?", "expected_output": "4"},
        **{
            "assert": [
                {"type": "llm-rubric", "prompt": "file://judges/custom.md", "value": "Sums."}
            ]
        },
    )

    assert "Ref: \n" in (result.evaluator_prompt or "")
    assert [warning.code for warning in result.warnings] == ["empty_reference"]
    assert "{{expected_output}} in the judge prompt of llm-rubric is empty" in (
        result.warnings[0].message
    )


@pytest.mark.parametrize(
    ("asserts", "reason"),
    [
        (
            [{"type": "llm-rubric", "prompt": "judges/no-placeholder.md"}],
            "neither {{output}} nor {{expected_output}}",
        ),
        ([{"type": "rubrics", "value": ["x"]}], "`rubrics` has been removed"),
    ],
)
def test_asserts_agentv_rejects_are_formatted_with_a_warning(
    asserts: list[Any], reason: str
) -> None:
    result = formatted(**{"assert": asserts})
    [warning] = result.warnings
    assert warning.code == "agentv_skips_test"
    assert "AgentV skips this test: " in warning.message
    assert reason.split("`")[-1].strip() in warning.message


def test_other_model_graders_use_the_default_template() -> None:
    result = formatted(
        criteria="Correct", expected_output="4", **{"assert": [{"type": "llm-grader"}]}
    )
    prompt = result.evaluator_prompt or ""
    assert sections(prompt) == ["criteria", "question", "reference_answer", "answer"]
    assert prompt.endswith(
        "[[ ## criteria ## ]]\nCorrect\n\n[[ ## question ## ]]\nWhat is 2+2?\n\n"
        "[[ ## reference_answer ## ]]\n4\n\n[[ ## answer ## ]]\n{{candidate_answer}}"
    )


def test_only_deterministic_asserts_have_no_judge_prompt() -> None:
    result = formatted(
        **{"assert": [{"type": "contains", "value": "4"}, {"type": "script", "command": ["x"]}]}
    )
    assert result.graded is True
    assert result.evaluator_prompt is None
    assert [judge.prompt for judge in result.judges] == [None, None]


def test_criteria_alone_is_one_rubric_item() -> None:
    # AgentV turns a test's criteria into a bare-string assert when nothing else grades it.
    result = formatted(criteria="Adds correctly.")
    assert "- [rubric-1] (REQUIRED): Adds correctly." in (result.evaluator_prompt or "")


def test_file_level_asserts_follow_the_tests_own_unless_skipped() -> None:
    header = {"assert": ["File level"], "default_test": {"assert": ["Default level"]}}
    result = formatted(header, **{"assert": [{"type": "contains", "value": "4"}]})
    assert [judge.label for judge in result.judges] == ["contains", "rubric items"]
    skipped = formatted(
        header,
        execution={"skip_defaults": True},
        **{"assert": [{"type": "contains", "value": "4"}]},
    )
    assert [judge.label for judge in skipped.judges] == ["contains"]


def test_the_judge_sees_the_question_of_its_mode() -> None:
    result = formatted(**{"assert": ["Says 4"]})
    assert "[[ ## question ## ]]\nWhat is 2+2?\n" in (result.evaluator_prompt or "")

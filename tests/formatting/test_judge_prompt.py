"""The judge (evaluator) prompt: sections, reference answer and custom templates."""

from __future__ import annotations

from typing import Any

import pytest

from evals_app.formatting.judge_prompt import DEFAULT_JUDGE_TEMPLATE
from evals_app.formatting.profile_2025.formatter import FormattedCase, Mode, format_case
from evals_app.formatting.workspace_files import MappingFiles
from tests.formatting.factories import file, make_case, message, text

EVAL_PATH = "evals/review.yaml"
SECTIONS = ["expected_outcome", "question", "reference_answer", "candidate_answer"]


def _format(
    *messages: dict[str, Any],
    files: dict[str, str] | None = None,
    mode: Mode = "lm",
    **case_options: Any,
) -> FormattedCase:
    return format_case(
        make_case(*messages, **case_options),
        eval_path=EVAL_PATH,
        files=MappingFiles(files or {}),
        mode=mode,
    )


def test_default_prompt_has_the_four_sections_in_order() -> None:
    formatted = _format(
        message("user", "What is 2+2?"),
        expected=[message("assistant", "4")],
        outcome="Says 4.\n",
    )

    prompt = formatted.evaluator_prompt("Four.")

    positions = [prompt.index(f"[[ ## {name} ## ]]\n") for name in SECTIONS]
    assert positions == sorted(positions)
    assert prompt.endswith(
        "[[ ## expected_outcome ## ]]\nSays 4.\n\n"
        "[[ ## question ## ]]\nWhat is 2+2?\n\n"
        "[[ ## reference_answer ## ]]\n4\n\n"
        "[[ ## candidate_answer ## ]]\nFour."
    )


def test_default_candidate_answer_is_the_literal_placeholder() -> None:
    formatted = _format(message("user", "Hi"))

    assert formatted.evaluator_prompt().endswith(
        "[[ ## candidate_answer ## ]]\n{{candidate_answer}}"
    )


def test_question_section_is_exactly_the_question_with_markers() -> None:
    formatted = _format(
        message("system", [file("g.instructions.md")]),
        message("user", "Hi"),
        message("assistant", "Yo"),
        files={"g.instructions.md": "Secret guideline text."},
    )

    prompt = formatted.evaluator_prompt()

    assert f"[[ ## question ## ]]\n{formatted.question}\n\n[[ ## reference" in prompt
    assert "Secret guideline text." not in prompt


@pytest.mark.parametrize("mode", ["lm", "agent"])
def test_reference_answer_renders_the_first_expected_message_as_in_lm_mode(mode: Mode) -> None:
    formatted = _format(
        message("user", "Fix it."),
        expected=[
            message(
                "assistant",
                [text("  Here:  "), text("   "), file("fix.py"), "Done.", file("empty.md")],
            ),
            message("assistant", "Ignored second message."),
        ],
        files={"fix.py": "x = 1\r\n", "empty.md": ""},
        mode=mode,
    )

    assert formatted.reference_answer == 'Here:\n\n<file path="fix.py">\nx = 1\n</file>\n\nDone.'
    assert [(w.code, w.section, w.turn) for w in formatted.warnings] == [
        ("empty_file", "expected", 0)
    ]


def test_reference_answer_is_empty_without_expected_messages() -> None:
    formatted = _format(message("user", "Hi"))

    assert formatted.reference_answer == ""
    assert (
        "[[ ## reference_answer ## ]]\n\n\n[[ ## candidate_answer" in formatted.evaluator_prompt()
    )


def test_judge_prompt_file_is_the_template() -> None:
    formatted = _format(
        message("user", "Hi"),
        expected=[message("assistant", "Hello")],
        evaluators=[
            {"name": "keywords", "type": "code", "script": "check.py"},
            {"name": "correctness", "type": "llm_judge", "prompt": "../judges/correct.md"},
        ],
        files={
            "judges/correct.md": (
                "Q={{question}}\r\nO={{ expected_outcome }}\r\nR={{reference_answer}}\r\n"
                "A={{candidate_answer}} {{unknown}}"
            )
        },
        outcome="Greets.",
    )

    assert formatted.warnings == ()
    assert formatted.evaluator_prompt("Hey") == "Q=Hi\nO=Greets.\nR=Hello\nA=Hey {{unknown}}"


def test_substitution_is_one_pass() -> None:
    formatted = _format(
        message("user", "Say {{candidate_answer}} and {{question}}"),
        expected=[message("assistant", "{{expected_outcome}}")],
    )

    prompt = formatted.evaluator_prompt("{{reference_answer}}")

    assert "[[ ## question ## ]]\nSay {{candidate_answer}} and {{question}}\n\n" in prompt
    assert "[[ ## reference_answer ## ]]\n{{expected_outcome}}\n\n" in prompt
    assert prompt.endswith("[[ ## candidate_answer ## ]]\n{{reference_answer}}")


def test_inline_prompt_is_a_template() -> None:
    formatted = _format(
        message("user", "Hi"),
        evaluators=[
            {"type": "llm_judge", "prompt": "Grade {{candidate_answer}} for {{question}}."}
        ],
    )

    assert formatted.evaluator_prompt("Hey") == "Grade Hey for Hi."
    assert formatted.warnings == ()


def test_missing_prompt_file_warns_and_uses_the_default_template() -> None:
    formatted = _format(
        message("user", "Hi"),
        evaluators=[{"name": "correctness", "type": "llm_judge", "prompt": "judges/gone.md"}],
    )

    assert formatted.judge_template == DEFAULT_JUDGE_TEMPLATE
    [warning] = formatted.warnings
    assert (warning.code, warning.section, warning.turn) == ("missing_judge_prompt", None, None)
    assert warning.message == (
        'Case "case-1": judge prompt file "judges/gone.md" of evaluator "correctness" was not '
        "found (tried evals/judges/gone.md, judges/gone.md); the default judge template is used."
    )


def test_case_evaluators_replace_the_file_evaluators() -> None:
    file_evaluators = [{"type": "llm_judge", "prompt": "File: {{question}}"}]

    from_file = _format(message("user", "Hi"), file_evaluators=file_evaluators)
    from_case = _format(
        message("user", "Hi"),
        file_evaluators=file_evaluators,
        evaluators=[{"type": "llm_judge", "prompt": "Case: {{question}}"}],
    )

    assert from_file.evaluator_prompt() == "File: Hi"
    assert from_case.evaluator_prompt() == "Case: Hi"


def test_without_an_llm_judge_prompt_the_default_template_is_used() -> None:
    formatted = _format(
        message("user", "Hi"),
        evaluators=[{"type": "code", "script": "check.py"}, {"type": "llm_judge"}],
    )

    assert formatted.judge_template == DEFAULT_JUDGE_TEMPLATE

"""Judge templates for today's AgentV: 2025 placeholders renamed, missing sections appended
(docs/formats.md, "Upgrading to today's format")."""

from __future__ import annotations

import pytest

from evals_app.eval_files.judge_templates import copy_path, upgrade_judge_template

SECTIONS = {
    "question": "[[ ## question ## ]]\n{{input}}",
    "criteria": "[[ ## criteria ## ]]\n{{criteria}}",
    "reference_answer": "[[ ## reference_answer ## ]]\n{{expected_output}}",
    "answer": "[[ ## answer ## ]]\n{{output}}",
}


@pytest.mark.parametrize(
    ("template", "upgraded"),
    [
        ("Answer: {{candidate_answer}}", "Answer: {{output}}"),
        ("Ref: {{ reference_answer }}", "Ref: {{expected_output}}"),
        (
            "O: {{expected_outcome}} Q: {{question}} A: {{candidate_answer}}\n",
            "O: {{criteria}} Q: {{input}} A: {{output}}\n",
        ),
        ("Already {{output}} and {{ input }}", "Already {{output}} and {{ input }}"),
        (
            "Grade it.\n",
            "Grade it.\n\n" + "\n\n".join(SECTIONS.values()) + "\n",
        ),
        (
            "Q: {{question}}\nO: {{expected_outcome}}",
            "Q: {{input}}\nO: {{criteria}}\n\n"
            + SECTIONS["reference_answer"]
            + "\n\n"
            + SECTIONS["answer"]
            + "\n",
        ),
        ("", "\n\n".join(SECTIONS.values()) + "\n"),
    ],
    ids=[
        "candidate_answer",
        "reference_answer with spaces",
        "every placeholder",
        "today's template unchanged",
        "no placeholder: every section appended",
        "only the lacking sections appended",
        "empty template",
    ],
)
def test_upgrade_judge_template(template: str, upgraded: str) -> None:
    assert upgrade_judge_template(template) == upgraded


def test_an_upgraded_template_is_upgraded_already() -> None:
    once = upgrade_judge_template("Grade the answer.")

    assert upgrade_judge_template(once) == once


@pytest.mark.parametrize(
    ("path", "copy"),
    [
        ("judges/grade.md", "judges/grade.v2026.md"),
        ("grade.md", "grade.v2026.md"),
        ("judges/grade", "judges/grade.v2026"),
        ("a.b/grade.txt", "a.b/grade.v2026.txt"),
    ],
)
def test_copy_path_is_beside_the_template(path: str, copy: str) -> None:
    assert copy_path(path) == copy

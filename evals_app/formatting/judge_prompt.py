"""The judge (evaluator) prompt: its template and the values filled in (docs/formatting.md,
"The judge prompt").

The template is the default below, or the `prompt` of the case's first `llm_judge` evaluator
(else its file's): a workspace file when the prompt names one, otherwise inline template text.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from typing import Any

from evals_app.formatting.case_input import CaseInput
from evals_app.formatting.segments import SegmentRenderer, places_tried
from evals_app.formatting.workspace_files import resolve_file

CANDIDATE_ANSWER_PLACEHOLDER = "{{candidate_answer}}"

DEFAULT_JUDGE_TEMPLATE = """\
You are grading a candidate answer. Decide how well it achieves the expected outcome, given \
the question it answers. The reference answer, when there is one, is an example of a good \
answer, not the only acceptable one.

Reply with a JSON object and nothing else: {"score": a number from 0.0 (misses the outcome) \
to 1.0 (fully achieves it), "hits": [what the answer gets right], "misses": [what it gets \
wrong or leaves out], "reasoning": "one or two sentences"}.

[[ ## expected_outcome ## ]]
{{expected_outcome}}

[[ ## question ## ]]
{{question}}

[[ ## reference_answer ## ]]
{{reference_answer}}

[[ ## candidate_answer ## ]]
{{candidate_answer}}"""

_PLACEHOLDER = re.compile(
    r"\{\{\s*(question|expected_outcome|reference_answer|candidate_answer)\s*\}\}"
)


def fill_judge_template(template: str, values: Mapping[str, str]) -> str:
    """Substitute the `{{name}}` placeholders in one pass: inserted values are never rescanned."""
    return _PLACEHOLDER.sub(lambda match: values[match.group(1)], template)


def reference_answer(case: CaseInput, renderer: SegmentRenderer) -> str:
    """The first expected message rendered as in `lm` mode, blocks joined by a blank line."""
    if not case.expected_messages:
        return ""
    content = case.expected_messages[0].content
    segments = renderer.render(content, mode="lm", section="expected", turn=0)
    return "\n\n".join(segment.text for segment in segments)


def judge_template(case: CaseInput, renderer: SegmentRenderer) -> str:
    """The template of the first `llm_judge` evaluator (case level, else file level)."""
    evaluator = next(
        (item for item in case.evaluators if isinstance(item, dict) and _is_llm_judge(item)), None
    )
    prompt = evaluator.get("prompt") if evaluator is not None else None
    if evaluator is None or prompt is None or (isinstance(prompt, str) and not prompt.strip()):
        return DEFAULT_JUDGE_TEMPLATE
    evaluator_name = evaluator.get("name")
    name = f' of evaluator "{evaluator_name}"' if isinstance(evaluator_name, str) else ""
    if not isinstance(prompt, str):
        renderer.warn_case(
            "missing_judge_prompt",
            f"the judge prompt{name} is not text or a file path; the default judge template "
            "is used.",
        )
        return DEFAULT_JUDGE_TEMPLATE
    value = prompt.strip()
    if "\n" in value:
        return prompt
    resolution = resolve_file(value, renderer.eval_path, renderer.files)
    if resolution.file is not None:
        return resolution.file.text
    if resolution.undecodable_path is not None:
        renderer.warn_case(
            "undecodable_file",
            f'judge prompt file "{resolution.display_path}"{name} '
            f"({resolution.undecodable_path}) is not UTF-8 text; the default judge template "
            "is used.",
        )
        return DEFAULT_JUDGE_TEMPLATE
    if _looks_like_path(value):
        renderer.warn_case(
            "missing_judge_prompt",
            f'judge prompt file "{resolution.display_path}"{name} was not found '
            f"({places_tried(resolution)}); the default judge template is used.",
        )
        return DEFAULT_JUDGE_TEMPLATE
    return prompt


def _is_llm_judge(evaluator: dict[Any, Any]) -> bool:
    # Both spellings occur in files of the 2025 periods.
    return evaluator.get("type") in ("llm_judge", "llm-judge")


def _looks_like_path(value: str) -> bool:
    # A single word with a file extension ("judges/correctness.md") was meant as a file.
    return not any(char.isspace() for char in value) and bool(
        posixpath.splitext(posixpath.basename(value))[1]
    )

"""The judge prompts of the AgentV 2026 profile (docs/formatting.md, "The AgentV 2026 profile",
step 6): one per grader that asks a model, `None` for a grader that does not (`contains`,
`regex`, `script`, ...).

Bare-string asserts are gathered into one rubric checklist at the place of the first (as
AgentV does); an `llm-rubric` with text is a checklist of its own; an `llm-rubric` with a
`prompt` fills that template; any other model grader uses the default template.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from evals_app.formatting.judge_prompt import CANDIDATE_ANSWER_PLACEHOLDER
from evals_app.formatting.segments import WarningCode
from evals_app.formatting.workspace_files import FileSource, resolve_file

DEFAULT_TEMPLATE_2026 = """\
You are grading an answer against the criteria of the task it answers. The reference answer, \
when there is one, shows what a good answer looks like; the answer need not match it word for \
word, but it should make the same points.

Credit only what the answer itself shows. Keep your feedback short and specific.

[[ ## criteria ## ]]
{{criteria}}

[[ ## question ## ]]
{{input}}

[[ ## reference_answer ## ]]
{{expected_output}}

[[ ## answer ## ]]
{{output}}"""

CHECKLIST_INTRODUCTION = (
    "You are grading an answer item by item against the rubric below. Mark an item satisfied "
    "only when the answer shows it; quote the answer where you can."
)
CHECKLIST_CLOSING = "For each rubric item, say whether it is satisfied and why, in a sentence."
MODEL_GRADERS = ("llm-rubric", "agent-rubric", "llm-grader", "llm_judge", "llm-judge", "g-eval")
REJECTED_TYPES = ("rubrics", "rubric")
_VARIABLE = re.compile(r"\{\{\s*([a-zA-Z0-9_]+)\s*\}\}")
_REQUIRED_PLACEHOLDER = re.compile(r"\{\{\s*(output|expected_output)\s*\}\}")
_EXPECTED_OUTPUT = re.compile(r"\{\{\s*expected_output\s*\}\}")

Warn = Callable[[WarningCode, str], None]


@dataclass(frozen=True)
class JudgeInputs:
    """What every judge prompt of one test fills in."""

    question: str
    criteria: str
    reference_answer: str
    candidate_answer: str = CANDIDATE_ANSWER_PLACEHOLDER


@dataclass(frozen=True)
class AssertJudge:
    """One grader: what it is, in words, and the prompt its judge model gets (None when no
    model grades it)."""

    label: str
    prompt: str | None


def graders(asserts: Sequence[Any], warn: Warn) -> list[tuple[str, Any]]:
    """The graders AgentV makes of a list of asserts: `("rubric", [texts])` for the gathered
    bare strings, `("assert", mapping)` for each other entry, in AgentV's order."""
    strings = [item.strip() for item in asserts if isinstance(item, str) and item.strip()]
    result: list[tuple[str, Any]] = []
    placed = False
    for item in asserts:
        if isinstance(item, str):
            if not placed and strings:
                result.append(("rubric", strings))
            placed = True
        elif isinstance(item, dict):
            result.append(("assert", item))
        else:
            warn(
                "agentv_skips_test",
                f"an assert that is {type(item).__name__} is skipped by AgentV.",
            )
    return result


def judge_prompts(
    asserts: Sequence[Any],
    inputs: JudgeInputs,
    *,
    eval_path: str,
    files: FileSource,
    warn: Warn,
) -> list[AssertJudge]:
    """One `AssertJudge` per grader of `asserts`."""
    judges: list[AssertJudge] = []
    for kind, grader in graders(asserts, warn):
        if kind == "rubric":
            label = "rubric items" if len(grader) > 1 else "rubric item"
            judges.append(AssertJudge(label, checklist(grader, inputs)))
            continue
        judges.append(_typed_judge(grader, inputs, eval_path=eval_path, files=files, warn=warn))
    return judges


def _typed_judge(
    grader: dict[Any, Any], inputs: JudgeInputs, *, eval_path: str, files: FileSource, warn: Warn
) -> AssertJudge:
    grader_type = grader.get("type")
    label = grader_type if isinstance(grader_type, str) else "assert"
    if isinstance(grader.get("name"), str):
        label = f"{label} ({grader['name']})"
    if grader_type in REJECTED_TYPES:
        # AgentV skips the test: loader_rules.py says so, as for every removed type.
        return AssertJudge(label, None)
    if grader_type not in MODEL_GRADERS:
        return AssertJudge(label, None)
    prompt = grader.get("prompt")
    if (
        grader_type in ("llm-rubric", "agent-rubric")
        and isinstance(prompt, str)
        and prompt.startswith("file://")
        and not rubric_items(grader.get("value"))
    ):
        # AgentV reads a file:// prompt as the template only; with no value beside it the
        # grader has nothing it accepts, and is skipped.
        warn(
            "agentv_skips_test",
            f"AgentV skips this {grader_type}: its only prompt is a file:// reference "
            "(give it a `value`, or an inline prompt).",
        )
    if prompt is not None:
        template = _template(prompt, eval_path=eval_path, files=files, warn=warn)
        if template is None:
            return AssertJudge(label, None)
        if grader_type in ("llm-rubric", "agent-rubric") and not _REQUIRED_PLACEHOLDER.search(
            template
        ):
            warn(
                "agentv_skips_test",
                "AgentV skips this test: the llm-rubric prompt template holds neither "
                "{{output}} nor {{expected_output}}.",
            )
        if _EXPECTED_OUTPUT.search(template) and not inputs.reference_answer.strip():
            # A pitfall of today's files: the reference answer now lives in
            # `vars.expected_output`, which a judge template never sees.
            warn(
                "empty_reference",
                f"{{{{expected_output}}}} in the judge prompt of {label} is empty: AgentV fills "
                "it from the test's expected output, and a `vars.expected_output` reaches only "
                "text rendered with the variables (such as an llm-rubric value).",
            )
        return AssertJudge(label, substitute(template, inputs))
    value = grader.get("value")
    items = rubric_items(value)
    if items:
        return AssertJudge(label, checklist(items, inputs))
    if grader_type in ("llm-rubric", "agent-rubric"):
        warn(
            "agentv_skips_test", f"AgentV skips this {grader_type}: it has no value and no prompt."
        )
        return AssertJudge(label, None)
    return AssertJudge(label, substitute(DEFAULT_TEMPLATE_2026, inputs))


def rubric_items(value: Any) -> list[Any]:
    """The rubric items of an `llm-rubric` value: text, or a list of texts and item mappings."""
    if isinstance(value, str):
        return [value.strip()] if value.strip() else []
    if isinstance(value, list):
        return [
            item
            for item in value
            if (isinstance(item, str) and item.strip()) or isinstance(item, dict)
        ]
    return []


def _template(prompt: Any, *, eval_path: str, files: FileSource, warn: Warn) -> str | None:
    if not isinstance(prompt, str) or not prompt.strip():
        warn(
            "missing_judge_prompt", "the judge prompt is not text or a file path; AgentV skips it."
        )
        return None
    value = prompt.strip()
    if "\n" in value:
        return prompt
    path = value.removeprefix("file://")
    resolution = resolve_file(path, eval_path, files)
    if resolution.file is not None:
        return resolution.file.text
    if value.startswith("file://") or ("." in path.rsplit("/", 1)[-1] and " " not in path):
        warn(
            "missing_judge_prompt",
            f'judge prompt file "{resolution.display_path}" was not found; '
            "AgentV refuses the test.",
        )
        return None
    return prompt


def substitute(template: str, inputs: JudgeInputs) -> str:
    """`{{criteria}}`, `{{input}}`, `{{expected_output}}` and `{{output}}` filled in one pass;
    other names are left as written."""
    values = {
        "criteria": inputs.criteria.strip(),
        "input": inputs.question.strip(),
        "expected_output": inputs.reference_answer.strip(),
        "output": inputs.candidate_answer,
    }
    return _VARIABLE.sub(lambda match: values.get(match.group(1), match.group(0)), template)


def checklist(items: Sequence[Any], inputs: JudgeInputs) -> str:
    """The rubric checklist prompt: question, criteria, reference answer (when there is one),
    answer and the rubric lines, each section under its `[[ ## NAME ## ]]` line."""
    parts = [
        CHECKLIST_INTRODUCTION,
        "",
        "[[ ## question ## ]]",
        inputs.question,
        "",
        "[[ ## criteria ## ]]",
        inputs.criteria,
        "",
    ]
    if inputs.reference_answer.strip():
        parts += ["[[ ## reference_answer ## ]]", inputs.reference_answer, ""]
    parts += ["[[ ## answer ## ]]", inputs.candidate_answer, "", "[[ ## rubrics ## ]]"]
    parts += [_rubric_line(item, number) for number, item in enumerate(items, start=1)]
    parts += ["", CHECKLIST_CLOSING]
    return "\n".join(parts)


def _rubric_line(item: Any, number: int) -> str:
    if isinstance(item, str):
        return f"- [rubric-{number}] (REQUIRED): {item.strip()}"
    rubric_id = item.get("id") if isinstance(item.get("id"), str) else f"rubric-{number}"
    text = next(
        (item[key] for key in ("outcome", "value", "criteria") if isinstance(item.get(key), str)),
        "",
    )
    required = " (REQUIRED)" if item.get("required", True) is not False else ""
    weight = item.get("weight")
    weighted = f" (weight: {weight})" if isinstance(weight, (int, float)) and weight != 1 else ""
    return f"- [{rubric_id}]{required}{weighted}: {text.strip()}"

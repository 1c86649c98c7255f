"""Formatting an eval case into `question`, `guidelines`, `chat_prompt` and the judge prompt.

The contract is docs/formatting.md; one function, `format_case`, produces the question that
both the candidate and the judge see.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from evals_app.formatting.case_input import CaseInput, Role
from evals_app.formatting.guideline_patterns import DEFAULT_GUIDELINE_PATTERNS
from evals_app.formatting.judge_prompt import (
    CANDIDATE_ANSWER_PLACEHOLDER,
    fill_judge_template,
    judge_template,
    reference_answer,
)
from evals_app.formatting.segments import MODES, FormattingWarning, Mode, Segment, SegmentRenderer
from evals_app.formatting.workspace_files import FileSource

__all__ = [
    "MODES",
    "FormattedCase",
    "FormattingWarning",
    "Mode",
    "decide_role_markers",
    "format_case",
]

ROLE_LABELS: dict[Role, str] = {
    "system": "System",
    "user": "User",
    "assistant": "Assistant",
    "tool": "Tool",
}


@dataclass(frozen=True)
class FormattedCase:
    """Everything a run sends for one case in one mode, plus the warnings found on the way."""

    mode: Mode
    question: str
    guidelines: str
    chat_prompt: list[dict[str, str]] | None
    role_markers: bool
    reason: str
    warnings: tuple[FormattingWarning, ...]
    # The visible turns in order: (role, segments joined by "\n", guideline refs included).
    turns: tuple[tuple[str, str], ...]
    expected_outcome: str
    reference_answer: str
    judge_template: str = field(repr=False)
    # Whether it is the same in every mode but for `mode` (no file block rendered).
    mode_free: bool = field(repr=False, compare=False)

    def evaluator_prompt(self, candidate_answer: str = CANDIDATE_ANSWER_PLACEHOLDER) -> str:
        """The judge prompt; by default the candidate answer stays a `{{candidate_answer}}` slot."""
        return fill_judge_template(
            self.judge_template,
            {
                "question": self.question,
                "expected_outcome": self.expected_outcome,
                "reference_answer": self.reference_answer,
                "candidate_answer": candidate_answer,
            },
        )


class _Turn(NamedTuple):
    role: Role
    segments: list[Segment]
    visible: bool  # has a visible segment (docs/formatting.md, "Segments of a message")


def decide_role_markers(roles: Sequence[Role], visible_turns: int) -> tuple[bool, str]:
    """Whether the question gets `@[Role]:` markers, and why in words the editor shows."""
    for role in roles:
        if role in ("assistant", "tool"):
            return True, f"{role} turn present"
    if visible_turns > 1:
        return True, f"{visible_turns} turns with visible content"
    if visible_turns == 1:
        return False, "only one turn has visible content"
    return False, "no visible content"


def format_case(
    case: CaseInput,
    *,
    eval_path: str,
    files: FileSource,
    guideline_patterns: Sequence[str] = DEFAULT_GUIDELINE_PATTERNS,
    mode: Mode = "lm",
) -> FormattedCase:
    """Format `case` from the eval file at workspace path `eval_path`, reading files from `files`.

    Never raises for missing or unreadable files: those become warnings.
    """
    if mode not in MODES:
        raise ValueError(f"Unknown formatting mode {mode!r}; expected one of {MODES}")
    renderer = SegmentRenderer(
        case_id=case.id, eval_path=eval_path, files=files, guideline_patterns=guideline_patterns
    )
    return _format(case, renderer, mode)


def format_case_in_modes(
    case: CaseInput,
    modes: Sequence[Mode],
    *,
    eval_path: str,
    files: FileSource,
    guideline_patterns: Sequence[str] = DEFAULT_GUIDELINE_PATTERNS,
) -> list[FormattedCase]:
    """`format_case` in each of `modes`, in order. The mode changes only how an input's file
    blocks render, so a case whose input renders none is formatted once for all of them."""
    formatted: list[FormattedCase] = []
    for mode in modes:
        if formatted and formatted[0].mode_free:
            formatted.append(replace(formatted[0], mode=mode))
        else:
            formatted.append(
                format_case(
                    case,
                    eval_path=eval_path,
                    files=files,
                    guideline_patterns=guideline_patterns,
                    mode=mode,
                )
            )
    return formatted


def _format(case: CaseInput, renderer: SegmentRenderer, mode: Mode) -> FormattedCase:
    turns: list[_Turn] = []
    for i, message in enumerate(case.input_messages):
        segments = renderer.render(message.content, mode=mode, section="input", turn=i)
        turns.append(_Turn(message.role, segments, any(segment.visible for segment in segments)))
    visible = [turn for turn in turns if turn.visible]
    role_markers, reason = decide_role_markers([turn.role for turn in turns], len(visible))
    if not visible:
        renderer.warn_case(
            "no_visible_content", "no input message has visible content, so the question is empty."
        )
    guidelines = _guidelines(turns)
    rendered_turns = tuple(
        (turn.role, "\n".join([segment.text for segment in turn.segments])) for turn in visible
    )
    if role_markers:
        question = "\n\n".join(f"@[{ROLE_LABELS[role]}]:\n{text}" for role, text in rendered_turns)
        chat_prompt: list[dict[str, str]] | None = _chat_prompt(turns, guidelines)
    else:
        question = "\n\n".join([segment.text for segment in visible[0].segments]) if visible else ""
        chat_prompt = None
    # Rendered after the input so that warnings come in reading order: input, expected, judge.
    reference = reference_answer(case, renderer)
    template = judge_template(case, renderer)
    outcome = case.outcome if isinstance(case.outcome, str) else ""
    if not outcome.strip() and not (case.evaluators or case.graded_otherwise):
        renderer.warn_case("no_outcome", _no_outcome(case.outcome))
    return FormattedCase(
        mode=mode,
        question=question,
        guidelines=guidelines,
        chat_prompt=chat_prompt,
        role_markers=role_markers,
        reason=reason,
        warnings=tuple(renderer.warnings),
        turns=rendered_turns,
        expected_outcome=outcome.strip(),
        reference_answer=reference,
        judge_template=template,
        mode_free=not renderer.rendered_files,
    )


def _no_outcome(outcome: object) -> str:
    if outcome is None or outcome == "":
        return "nothing to grade against: no outcome (criteria) and no evaluators."
    return "the outcome (criteria) is not text, and there are no evaluators to grade with."


def _guidelines(turns: Sequence[_Turn]) -> str:
    """Each guideline file once, in order of first reference (invisible turns included)."""
    files: dict[str, str] = {}
    for turn in turns:
        for segment in turn.segments:
            guideline = segment.guideline
            if guideline is not None and guideline.path not in files:
                files[guideline.path] = guideline.text.strip()
    return "\n\n".join(
        f'<file path="{path.rsplit("/", 1)[-1]}">\n{text}\n</file>'
        for path, text in files.items()
        if text  # an empty guideline file has nothing to say (warned about where referenced)
    )


def _chat_prompt(turns: Sequence[_Turn], guidelines: str) -> list[dict[str, str]]:
    """The chat messages: one leading system entry, then the later visible turns."""
    leading = 0
    while leading < len(turns) and turns[leading].role == "system":
        leading += 1
    system_parts = [f"[[ ## Guidelines ## ]]\n\n{guidelines}"] if guidelines else []
    messages: list[dict[str, str]] = []
    for index, turn in enumerate(turns):
        if not turn.visible:
            continue
        # Guideline refs are left out: the guidelines block in the system entry carries them.
        content = "\n".join(
            [segment.text for segment in turn.segments if segment.guideline is None]
        )
        if index < leading:
            system_parts.append(content)
        elif turn.role in ("user", "assistant"):
            messages.append({"role": turn.role, "content": content})
        else:
            messages.append(
                {"role": "assistant", "content": f"@[{ROLE_LABELS[turn.role]}]:\n{content}"}
            )
    if system_parts:
        messages.insert(0, {"role": "system", "content": "\n\n".join(system_parts)})
    return messages

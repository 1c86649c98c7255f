"""`format_tests_2026`: one test of a today's `tests` file, as AgentV 5 formats it, once per
expanded test (docs/formatting.md, "The AgentV 2026 profile")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from evals_app.formatting.judge_prompt import CANDIDATE_ANSWER_PLACEHOLDER
from evals_app.formatting.profile_2026.conversation import FormattedTurn, format_turns
from evals_app.formatting.profile_2026.expansion import ExpandedTest, expand_test, read_prompts
from evals_app.formatting.profile_2026.judge import AssertJudge, JudgeInputs, judge_prompts
from evals_app.formatting.profile_2026.loader_rules import (
    file_refusals,
    test_refusals,
    test_skips,
)
from evals_app.formatting.profile_2026.messages import (
    SegmentReader,
    input_messages,
    is_message,
    json_text,
)
from evals_app.formatting.profile_2026.prompt import ResolvedMessage, build_prompt
from evals_app.formatting.profile_2026.templates import TemplateContext, render_value
from evals_app.formatting.segments import MODES, FormattingWarning, Mode, WarningCode
from evals_app.formatting.workspace_files import FileSource


@dataclass(frozen=True)
class FormattedTest:
    """Everything AgentV sends for one expanded test in one mode, and what the preview says
    about it. `evaluator_prompt` is None when the test is not graded by a model; `judges` has
    one entry per grader; `turns` is set for conversation tests."""

    id: str
    source_id: str
    prompt_id: str | None
    variables: dict[Any, Any]
    mode: Mode
    question: str
    chat_prompt: list[dict[str, str]] | None
    system_message: str | None
    role_markers: bool
    reason: str
    warnings: tuple[FormattingWarning, ...]
    notes: tuple[FormattingWarning, ...]
    graded: bool
    evaluator_prompt: str | None
    judges: tuple[AssertJudge, ...]
    turns: tuple[FormattedTurn, ...] | None
    # The visible input messages: (role, rendered text), for compact encodings of the question.
    messages: tuple[tuple[str, str], ...] = ()


def format_tests_2026(
    document: dict[Any, Any],
    header: dict[Any, Any],
    *,
    eval_path: str,
    files: FileSource,
    mode: Mode = "lm",
    checkout_folder: str = "",
    candidate_answer: str | None = None,
) -> list[FormattedTest]:
    """Format the test `document` of the file whose top-level mapping is `header` (its cases
    aside), stored at workspace path `eval_path`; one result per expanded test, in AgentV's
    order. Never raises for what a user wrote: problems become warnings."""
    return format_tests_2026_in_modes(
        document,
        header,
        (mode,),
        eval_path=eval_path,
        files=files,
        checkout_folder=checkout_folder,
        candidate_answer=candidate_answer,
    )[0]


def format_tests_2026_in_modes(
    document: dict[Any, Any],
    header: dict[Any, Any],
    modes: Sequence[Mode],
    *,
    eval_path: str,
    files: FileSource,
    checkout_folder: str = "",
    candidate_answer: str | None = None,
) -> list[list[FormattedTest]]:
    """`format_tests_2026` in each of `modes`, in order. The mode changes only how an input's
    file segments render, so a test whose input has none is formatted once for all of them."""
    for mode in modes:
        if mode not in MODES:
            raise ValueError(f"Unknown formatting mode {mode!r}; expected one of {MODES}")
    source_id = _text_id(document)
    prompt_warnings: list[str] = []
    prompts = read_prompts(
        header.get("prompts"), eval_path=eval_path, files=files, warnings=prompt_warnings
    )
    results: list[list[FormattedTest]] = [[] for _ in modes]
    # Read from the test as written: expanding it by the prompts gives it an `input`.
    refusals = [*file_refusals(header), *test_refusals(document)]
    skips = test_skips(document, header)
    for expanded in expand_test(document, header, prompts):
        first: _TestFormatter | None = None
        for index, mode in enumerate(modes):
            if first is not None and first.mode_free:
                results[index].append(replace(results[0][-1], mode=mode))
                continue
            test = _TestFormatter(
                expanded,
                header,
                eval_path=eval_path,
                files=files,
                mode=mode,
                checkout_folder=checkout_folder,
                candidate_answer=candidate_answer or CANDIDATE_ANSWER_PLACEHOLDER,
            )
            for message in prompt_warnings:
                test.warn("prompts", message)
            for message in refusals:
                test.warn("agentv_refuses_file", message)
            for message in skips:
                test.warn("agentv_skips_test", message)
            results[index].append(test.format(source_id))
            first = first or test
    return results


def _text_id(document: dict[Any, Any]) -> str:
    value = document.get("id", document.get("test_id"))
    return value if isinstance(value, str) else "" if value is None else str(value)


class _TestFormatter:
    """Formats one expanded test, collecting its warnings in reading order."""

    def __init__(
        self,
        expanded: ExpandedTest,
        header: dict[Any, Any],
        *,
        eval_path: str,
        files: FileSource,
        mode: Mode,
        checkout_folder: str,
        candidate_answer: str,
    ) -> None:
        self.expanded = expanded
        self.test = expanded.document
        self.header = header
        self.eval_path = eval_path
        self.files = files
        self.mode = mode
        self.checkout_folder = checkout_folder
        self.candidate_answer = candidate_answer
        self.id = _text_id(self.test)
        # Whether the input has only text segments, and so formats alike in every mode.
        self.mode_free = False
        self.warnings: list[FormattingWarning] = []
        self.notes: list[FormattingWarning] = []
        for message in expanded.warnings:
            self.warn("template", message)

    def warn(self, code: WarningCode, message: str, turn: int | None = None) -> None:
        self.warnings.append(self._warning(code, message, turn))

    def note(self, code: WarningCode, message: str, turn: int | None = None) -> None:
        self.notes.append(self._warning(code, message, turn))

    def _warning(self, code: WarningCode, message: str, turn: int | None) -> FormattingWarning:
        if turn is None:
            return FormattingWarning(code, f'Test "{self.id}": {message}')
        where = f'Test "{self.id}", input message {turn + 1}'
        return FormattingWarning(code, f"{where}: {message}", "input", turn)

    def format(self, source_id: str) -> FormattedTest:
        messages = input_messages(self.test.get("input"), self._input_files(), self.warn)
        if not messages:
            self.warn("no_input", "there is no input; AgentV skips a test without input.")
        reader = SegmentReader(
            eval_path=self.eval_path, files=self.files, warn=self.warn, note=self.note
        )
        resolved = [
            ResolvedMessage(message.role, tuple(reader.segments(message.content, index)))
            for index, message in enumerate(messages)
        ]
        prompt = build_prompt(resolved, self.mode, self.checkout_folder)
        self.mode_free = all(
            segment.kind == "text" for message in resolved for segment in message.segments
        )
        if messages and not any(message.visible for message in resolved):
            self.warn(
                "no_visible_content",
                "no input message has visible content, so the question is empty.",
            )
        criteria = self._criteria()
        inputs = JudgeInputs(
            prompt.question,
            criteria,
            _reference_answer(self.test.get("expected_output")),
            self.candidate_answer,
        )
        asserts = self._asserts(criteria)
        judges = judge_prompts(
            asserts, inputs, eval_path=self.eval_path, files=self.files, warn=self.warn
        )
        turns = None
        if self.test.get("mode") == "conversation" or isinstance(self.test.get("turns"), list):
            turns = format_turns(
                self.test,
                messages,
                candidate_answer=self.candidate_answer,
                eval_path=self.eval_path,
                files=self.files,
                warn=self.warn,
            )
        return FormattedTest(
            id=self.id,
            source_id=source_id,
            prompt_id=self.expanded.prompt_id,
            variables=self.expanded.variables,
            mode=self.mode,
            question=prompt.question,
            chat_prompt=prompt.chat_prompt,
            system_message=prompt.system_message,
            role_markers=prompt.role_markers,
            reason=prompt.reason,
            warnings=tuple(self.warnings),
            notes=tuple(self.notes),
            graded=bool(asserts) or bool(turns and any(turn.judges for turn in turns)),
            evaluator_prompt=next(
                (judge.prompt for judge in judges if judge.prompt is not None), None
            ),
            judges=tuple(judges),
            turns=turns,
            messages=prompt.messages,
        )

    def _input_files(self) -> Any:
        if self.test.get("input_files") is not None:
            return self.test["input_files"]
        suite_files = self.header.get("input_files")
        if suite_files is None or not isinstance(self.test.get("vars"), dict):
            return suite_files
        return render_value(suite_files, TemplateContext(self.expanded.variables))

    def _criteria(self) -> str:
        criteria = self.test.get("criteria")
        if isinstance(criteria, str) and criteria:
            return criteria
        outcome = self.test.get("expected_outcome")
        if isinstance(outcome, str) and outcome:
            self.warn(
                "no_outcome",
                "`expected_outcome` has been removed from AgentV; it is read as `criteria`.",
            )
            return outcome
        return ""

    def _asserts(self, criteria: str) -> list[Any]:
        """The test's asserts, then the file's (`default_test.assert`, `assert`) unless the
        test skips defaults; criteria alone count as one rubric item (AgentV's rule)."""
        own = _as_list(self.test.get("assert", self.test.get("assertions")))
        execution = self.test.get("execution")
        skip_defaults = isinstance(execution, dict) and execution.get("skip_defaults") is True
        inherited: list[Any] = []
        if not skip_defaults:
            default_test = self.header.get("default_test")
            if isinstance(default_test, dict):
                inherited += _as_list(default_test.get("assert"))
            inherited += _as_list(self.header.get("assert"))
        if not own and not inherited and criteria.strip():
            return [criteria]
        return own + inherited


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _reference_answer(expected: Any) -> str:
    """The last expected message's content: its text, else its JSON text (2-space indent)."""
    if expected is None:
        return ""
    if isinstance(expected, str):
        return expected
    if (
        isinstance(expected, list)
        and expected
        and isinstance(expected[0], dict)
        and "role" in expected[0]
    ):
        messages = [item for item in expected if is_message(item)]
        if not messages:
            return ""
        last = messages[-1]
        if isinstance(last.get("content"), str):
            return str(last["content"])
        if last.get("content") is not None:
            return json_text(last["content"])
        return json_text(last["tool_calls"]) if last.get("tool_calls") is not None else ""
    if isinstance(expected, dict) and "role" in expected:
        return _reference_answer([expected])
    return json_text(expected)

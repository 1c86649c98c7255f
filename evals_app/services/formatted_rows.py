"""The rows of `formatted.jsonl`: what a case formats to, per mode (and per expanded test of the
AgentV 2026 profile), as export writes them and the API returns them (README, "Command line"
and "API")."""

from __future__ import annotations

from typing import Any

from ..eval_files.case_parts import split_case
from ..eval_files.dialects import PROFILE_2026
from ..formatting.engine import FormattedCase, Mode
from ..formatting.profile_2026 import FormattedTest
from ..formatting.toon import encode_turns
from ..models import Suite
from .formatting import WorkspaceFormatter


def formatted_rows(
    formatter: WorkspaceFormatter,
    suite: Suite,
    document: dict[Any, Any],
    modes: tuple[Mode, ...],
    *,
    toon: bool = False,
    single: bool = False,
) -> list[dict[str, Any]]:
    """The rows of the case `document` of `suite`: one per mode, or for the AgentV 2026 profile
    one per expanded test and mode, each test's modes together. With `single`, only the files
    the case may refer to are read (one case, as the API asks for)."""
    if suite.profile == PROFILE_2026:
        by_mode = (
            [formatter.format_tests(document, suite, mode, single=True) for mode in modes]
            if single
            else formatter.format_tests_in_modes(document, suite, modes)
        )
        return [
            expanded_test_row(suite, test, toon=toon)
            for tests in zip(*by_mode, strict=True)
            for test in tests
        ]
    parts = split_case(document)
    formatted = (
        [formatter.format_single(parts, suite, mode) for mode in modes]
        if single
        else formatter.format_parts_in_modes(parts, suite, modes)
    )
    return [case_row(suite, parts.case_id, item.mode, item, toon=toon) for item in formatted]


def case_row(
    suite: Suite, case_id: str, mode: Mode, formatted: FormattedCase, *, toon: bool = False
) -> dict[str, Any]:
    """The row of a case of the AgentV 2025 profile, formatted in `mode`; with `toon`,
    `question_toon` too."""
    row: dict[str, Any] = {
        "file": suite.path,
        "id": case_id,
        "mode": mode,
        "question": formatted.question,
        "guidelines": formatted.guidelines,
        "chat_prompt": formatted.chat_prompt,
        "evaluator_prompt": formatted.evaluator_prompt(),
        "role_markers": formatted.role_markers,
        "reason": formatted.reason,
        "warnings": [warning.message for warning in formatted.warnings],
        "profile": suite.profile,
        "system_message": None,
    }
    if toon:
        row["question_toon"] = encode_turns(formatted.turns)
    return row


def expanded_test_row(suite: Suite, test: FormattedTest, *, toon: bool = False) -> dict[str, Any]:
    """The row of one expanded test of the AgentV 2026 profile (docs/formatting.md)."""
    row: dict[str, Any] = {
        "file": suite.path,
        "id": test.id,
        "mode": test.mode,
        "question": test.question,
        "guidelines": "",  # today's AgentV has no guidelines
        "chat_prompt": test.chat_prompt,
        "evaluator_prompt": test.evaluator_prompt,
        "role_markers": test.role_markers,
        "reason": test.reason,
        "warnings": [warning.message for warning in test.warnings],
        "profile": suite.profile,
        "system_message": test.system_message,
    }
    if test.turns is not None:
        row["turns"] = [turn.as_json() for turn in test.turns]
    if toon:
        row["question_toon"] = encode_turns(test.messages)
    return row

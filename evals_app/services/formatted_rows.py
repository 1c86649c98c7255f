"""One row of `formatted.jsonl`: what a case formats to in one mode, as export writes it and
the API returns it (README, "Command line" and "API")."""

from __future__ import annotations

from typing import Any

from ..formatting.engine import FormattedCase, Mode
from ..formatting.toon import encode_turns
from ..models import Suite


def formatted_row(
    suite: Suite, case_id: str, mode: Mode, formatted: FormattedCase, *, toon: bool = False
) -> dict[str, Any]:
    """The `formatted.jsonl` row of the case `case_id` of `suite`, formatted in `mode`; with
    `toon`, `question_toon` too."""
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

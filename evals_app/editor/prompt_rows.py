"""The rows of a suite's Prompts card read back from the posted form, with the card's
structural edits (add, remove, move) applied to the unsaved rows. What a row is, and the
`prompts` entry it stands for, is `services/suites/prompts.py`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..request_numbers import parse_number
from ..services.suites.prompts import KINDS, PromptRow
from .form_fields import form_text, swap

# Far more than any file holds; a posted count above it is not a form the page produced.
MAX_PROMPTS = 500


class PromptFormError(ValueError):
    """The posted form is not one the settings page produced (a field missing or malformed)."""


def rows_from_form(data: Mapping[str, str]) -> list[PromptRow]:
    """The rows of a posted Prompts form: `prompt-count`, then `prompt-N-kind` and
    `prompt-N-text` for each. Raises PromptFormError when the form is not the page's."""
    count = parse_number(data.get("prompt-count"))
    if count is None or count > MAX_PROMPTS:
        raise PromptFormError("prompt-count is missing or not a number of prompts")
    rows = []
    for index in range(count):
        kind = data.get(f"prompt-{index}-kind")
        if kind not in KINDS:
            raise PromptFormError(f"prompt-{index}-kind is missing or unknown")
        rows.append(PromptRow(kind, form_text(data.get(f"prompt-{index}-text", ""))))
    return rows


def apply_action(rows: Sequence[PromptRow], action: str) -> tuple[list[PromptRow], str]:
    """`rows` after one structural edit (`add:template`, `add:file`, `remove:N`, `move:N:up`,
    `move:N:down`), and the id of the control to focus next. Raises PromptFormError for an
    action the page does not make."""
    edited = list(rows)
    verb, _, rest = action.partition(":")
    if verb == "add" and rest in ("template", "file"):
        edited.append(PromptRow(rest, ""))  # type: ignore[arg-type]  # checked just above
        return edited, f"prompt-{len(edited) - 1}-text"
    index_text, _, direction = rest.partition(":")
    index = parse_number(index_text)
    if index is None or index >= len(edited):
        raise PromptFormError(f"unknown action {action!r}")
    if verb == "remove" and not direction:
        del edited[index]
        return edited, "add-template-prompt" if not edited else f"prompt-{max(index - 1, 0)}-text"
    if verb == "move" and direction in ("up", "down"):
        return edited, f"prompt-{swap(edited, index, direction)}-move-{direction}"
    raise PromptFormError(f"unknown action {action!r}")

"""Judge templates rewritten for today's AgentV (docs/formats.md, "Upgrading to today's format").

Today's AgentV skips a test whose `llm-rubric` prompt file holds neither `{{output}}` nor
`{{expected_output}}`, and many 2025 templates hold no placeholder at all, because the 2025
judge appended its sections itself. The upgrade renames the 2025 placeholders and appends the
sections such a template lacks.
"""

from __future__ import annotations

import posixpath
import re

# The 2025 judge's placeholders and today's names for the same values.
RENAMED_PLACEHOLDERS: dict[str, str] = {
    "candidate_answer": "output",
    "expected_outcome": "criteria",
    "reference_answer": "expected_output",
    "question": "input",
}
# The sections appended to a template that has neither required placeholder, in this order:
# (section name, placeholder).
APPENDED_SECTIONS: tuple[tuple[str, str], ...] = (
    ("question", "input"),
    ("criteria", "criteria"),
    ("reference_answer", "expected_output"),
    ("answer", "output"),
)
REQUIRED_PLACEHOLDERS = ("output", "expected_output")
COPY_SUFFIX = ".v2026"

_OLD_PLACEHOLDER = re.compile(r"\{\{\s*(" + "|".join(RENAMED_PLACEHOLDERS) + r")\s*\}\}")


def has_placeholder(text: str, name: str) -> bool:
    """Whether `text` holds `{{name}}` (spaces inside the braces allowed)."""
    return re.search(r"\{\{\s*" + re.escape(name) + r"\s*\}\}", text) is not None


def upgrade_judge_template(text: str) -> str:
    """`text` with the 2025 placeholders renamed and, when it then has neither `{{output}}`
    nor `{{expected_output}}`, the sections it lacks appended."""
    renamed = _OLD_PLACEHOLDER.sub(lambda match: _placeholder(match.group(1)), text)
    if any(has_placeholder(renamed, name) for name in REQUIRED_PLACEHOLDERS):
        return renamed
    sections = [
        f"[[ ## {section} ## ]]\n{{{{{placeholder}}}}}"
        for section, placeholder in APPENDED_SECTIONS
        if not has_placeholder(renamed, placeholder)
    ]
    body = renamed.rstrip("\n")
    return (body + "\n\n" if body else "") + "\n\n".join(sections) + "\n"


def copy_path(path: str) -> str:
    """Where the upgraded copy of a template shared with older suites goes: beside it, as
    `NAME.v2026.md` (`judges/grade.md` → `judges/grade.v2026.md`)."""
    folder, name = posixpath.split(path)
    stem, extension = posixpath.splitext(name)
    if not stem:  # a dotfile: `.judge` → `.judge.v2026`
        stem, extension = name, ""
    return posixpath.join(folder, stem + COPY_SUFFIX + extension)


def _placeholder(old_name: str) -> str:
    return "{{" + RENAMED_PLACEHOLDERS[old_name] + "}}"

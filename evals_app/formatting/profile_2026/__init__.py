"""The AgentV 2026 profile: how today's AgentV (version 5) formats a `tests` file
(docs/formatting.md, "The AgentV 2026 profile")."""

from __future__ import annotations

from evals_app.formatting.profile_2026.conversation import FormattedTurn
from evals_app.formatting.profile_2026.formatter import (
    FormattedTest,
    format_tests_2026,
    format_tests_2026_in_modes,
)
from evals_app.formatting.profile_2026.judge import AssertJudge
from evals_app.formatting.profile_2026.references import file_references_2026

__all__ = [
    "AssertJudge",
    "FormattedTest",
    "FormattedTurn",
    "file_references_2026",
    "format_tests_2026",
    "format_tests_2026_in_modes",
]

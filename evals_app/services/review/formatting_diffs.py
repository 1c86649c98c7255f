"""What the model and the judge see in two revisions of a case, line by line, formatted by the
suite's profile (docs/formatting.md): the question, guidelines and judge prompt for the AgentV
2025 profile; for the AgentV 2026 profile, per expanded test (matched by its id), the question,
the system message, each judge prompt and each conversation turn's chat messages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ...models import Suite
from ..profiles import profile_of
from ..profiles.workspace_formatter import WorkspaceFormatter
from .case_diff import LineRow, Run, fold_unchanged, line_diff


@dataclass(frozen=True)
class TextDiff:
    """One text of both revisions side by side, unchanged lines folded beyond three of context."""

    title: str
    runs: list[Run[LineRow]]


@dataclass(frozen=True)
class TestDiff:
    """The texts of one test in both revisions. `test_id` is None for the AgentV 2025 profile
    (one test per case); `only_in` names the revision ("old" or "new") of a test the other
    revision does not expand to."""

    test_id: str | None
    only_in: Literal["old", "new"] | None
    texts: list[TextDiff]

    @property
    def changed(self) -> bool:
        """Whether any line of any text differs."""
        return any(not run.folded and _has_change(run) for text in self.texts for run in text.runs)


def formatting_diffs(
    formatter: WorkspaceFormatter, suite: Suite, old: dict[Any, Any], new: dict[Any, Any]
) -> list[TestDiff] | None:
    """The formatted texts of the case documents `old` and `new` of `suite`, in lm mode with the
    workspace's files (and the suite's top-level fields) as they are now; None when a revision
    cannot be formatted."""
    profile = profile_of(suite)
    before_tests = profile.formatted_texts(formatter, suite, old)
    after_tests = profile.formatted_texts(formatter, suite, new)
    if before_tests is None or after_tests is None:
        return None
    before = {test.test_id: test.texts for test in before_tests}
    after = {test.test_id: test.texts for test in after_tests}
    diffs = []
    # The newer revision's order, then the tests only the older one expands to.
    for test_id in [*after, *(test_id for test_id in before if test_id not in after)]:
        old_texts, new_texts = before.get(test_id, {}), after.get(test_id, {})
        titles = [*new_texts, *(title for title in old_texts if title not in new_texts)]
        only_in: Literal["old", "new"] | None = (
            "new" if test_id not in before else "old" if test_id not in after else None
        )
        diffs.append(
            TestDiff(
                test_id,
                only_in,
                [_diff(title, old_texts.get(title), new_texts.get(title)) for title in titles],
            )
        )
    return diffs


def _diff(title: str, old: str | None, new: str | None) -> TextDiff:
    """`old` and `new` line by line; a text only one revision has is all removed or all added."""
    if old is None and new is not None:
        rows = [LineRow("insert", None, line) for line in new.split("\n")]
    elif new is None and old is not None:
        rows = [LineRow("delete", line, None) for line in old.split("\n")]
    else:
        rows = line_diff(old or "", new or "")
    return TextDiff(title, fold_unchanged(rows, lambda row: row.op == "equal"))


def _has_change(run: Run[LineRow]) -> bool:
    return any(row.op != "equal" for row in run.items)

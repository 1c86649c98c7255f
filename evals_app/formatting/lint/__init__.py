"""The conversation linter (docs/user-guide.md, "Lint rules"): pure, no Django. A case is
linted alone (`lint_case`, as the editor's preview does) or with the other cases of its suite
(`lint_suite`, which adds duplicate ids and near-duplicates). A case's `metadata.lint_ignore`
silences a rule for it, with a reason."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from evals_app.formatting.lint.case_rules import case_findings
from evals_app.formatting.lint.rules import RULES, Finding, Rule, finding
from evals_app.formatting.lint.subject import LintCase, RoleOrder
from evals_app.formatting.lint.suite_rules import duplicate_ids, near_duplicates

__all__ = ["RULES", "Finding", "LintCase", "RoleOrder", "Rule", "lint_case", "lint_suite"]


def lint_case(case: LintCase) -> list[Finding]:
    """The findings of the one-case rules, less those the case silences."""
    return _silenced(case, list(case_findings(case)))


def lint_suite(cases: Sequence[LintCase]) -> list[list[Finding]]:
    """The findings of each case of `cases` (in order), the rules across cases included."""
    found = [list(case_findings(case)) for case in cases]
    for index, item in duplicate_ids(cases):
        found[index].append(item)
    for index, item in near_duplicates(cases):
        found[index].append(item)
    return [_silenced(case, findings) for case, findings in zip(cases, found, strict=True)]


def _silenced(case: LintCase, findings: list[Finding]) -> list[Finding]:
    """`findings` without the rules `metadata.lint_ignore` silences with a reason, plus the
    findings about `lint_ignore` itself (no reason, a rule that does not exist)."""
    metadata = case.metadata
    ignore = metadata.get("lint_ignore") if isinstance(metadata, Mapping) else None
    if ignore is None:
        return findings
    if not isinstance(ignore, Mapping):
        return [
            *findings,
            finding(
                "lint-ignore",
                "metadata.lint_ignore must map rule ids to the reason each is silenced.",
                field="metadata.lint_ignore",
            ),
        ]
    silenced: set[str] = set()
    problems: list[Finding] = []
    for rule, reason in ignore.items():
        field = f"metadata.lint_ignore.{rule}"
        if rule not in RULES or rule == "lint-ignore":
            problems.append(
                finding("lint-ignore", f"{field}: there is no lint rule “{rule}”.", field=field)
            )
        elif not isinstance(reason, str) or not reason.strip():
            problems.append(
                finding(
                    "lint-ignore",
                    f"{field}: silencing a rule needs a reason; the rule stays on.",
                    field=field,
                )
            )
        else:
            silenced.add(str(rule))
    return [item for item in findings if item.rule not in silenced] + problems

"""The tests AgentV runs for a suite of the AgentV 2026 profile: each case once per prompt and
per value of each list variable, by the engine's own expansion (docs/formatting.md, "The AgentV
2026 profile", step 1), listed on the suite settings page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...eval_files.json_text import encode_json
from ...eval_files.merge_keys import merged
from ...formatting.profile_2026.expansion import (
    expand_test,
    expands_variable,
    merged_variables,
    read_prompts,
)
from ...models import Suite
from .workspace_formatter import WorkspaceFormatter

# Enough to read through; a suite of a thousand cases is counted in full but not listed.
LISTED_TESTS = 200


@dataclass(frozen=True)
class ExpandedRow:
    """One test AgentV runs, or a case that runs none (`test_id` None: an empty list variable):
    its case, its id as expanded, its prompt's id, and the value of each list variable."""

    case_pk: int
    case_id: str
    test_id: str | None
    prompt_id: str | None
    variables: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class ExpandedListing:
    """The first expanded tests of a suite, with the counts of all of them."""

    rows: list[ExpandedRow]
    case_count: int
    test_count: int
    # What AgentV refuses in the file's `prompts` (a prompt file not found, …).
    warnings: list[str]

    @property
    def unlisted(self) -> int:
        """How many expanded tests are counted but not listed."""
        return self.test_count - sum(row.test_id is not None for row in self.rows)


def expanded_tests(
    suite: Suite, formatter: WorkspaceFormatter, limit: int = LISTED_TESTS
) -> ExpandedListing:
    """Every case of `suite` with the tests it expands to, in AgentV's order, the first `limit`
    listed and all of them counted. Reads the cases in one query and the workspace's files
    once (for `file://` prompts)."""
    header = formatter.file_header(suite)
    warnings: list[str] = []
    prompts = read_prompts(
        header.get("prompts"), eval_path=suite.path, files=formatter.files, warnings=warnings
    )
    cases = suite.cases.order_by("position").values_list("pk", "case_id", "document")
    rows: list[ExpandedRow] = []
    case_count = test_count = 0
    for case_pk, case_id, stored in cases:
        case_count += 1
        document = merged(stored)  # as AgentV reads it (eval_files/merge_keys.py)
        varying = _list_variables(document, header)
        count_before = test_count
        tests = expand_test(document, header, prompts) if isinstance(document, dict) else ()
        for expanded in tests:
            test_count += 1
            if len(rows) < limit:
                test_id = expanded.document.get("id")
                rows.append(
                    ExpandedRow(
                        case_pk,
                        case_id,
                        test_id if isinstance(test_id, str) else case_id,
                        expanded.prompt_id,
                        tuple(
                            (str(name), _shown(expanded.variables[name]))
                            for name in varying
                            if name in expanded.variables
                        ),
                    )
                )
        if test_count == count_before and len(rows) < limit:
            rows.append(ExpandedRow(case_pk, case_id, None, None, ()))
    return ExpandedListing(rows, case_count, test_count, warnings)


def _list_variables(document: Any, header: dict[Any, Any]) -> list[Any]:
    """The names of the test's variables that make one test per value."""
    if not isinstance(document, dict):
        return []
    variables = merged_variables(document, header)
    if not isinstance(variables, dict):
        return []
    return [name for name, value in variables.items() if expands_variable(value)]


def _shown(value: Any) -> str:
    return value if isinstance(value, str) else encode_json(value)

"""Searching every suite of a workspace at once: the cases whose id or text holds the query,
grouped by suite, a page at a time (docs/user-guide.md, "Searching")."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page, Paginator

from ...models import Case, Suite, Workspace
from .work_list import search_filter


@dataclass(frozen=True)
class SuiteMatches:
    """The matching cases of one suite on the page shown, in the suite's order."""

    suite: Suite
    cases: list[Case]


@dataclass(frozen=True)
class WorkspaceSearch:
    """One page of the matching cases of a workspace, and those cases by suite."""

    query: str
    page: Page[Case] | None  # None when nothing was asked
    groups: list[SuiteMatches]


def search_workspace(
    workspace: Workspace, query: str, page_number: str | None, per_page: int
) -> WorkspaceSearch:
    """The page `page_number` (as `Paginator.get_page` reads it) of the cases of `workspace`
    that match `query`, as the suite page's search matches, in suite path then case order."""
    query = query.strip()
    if not query:
        return WorkspaceSearch(query, None, [])
    cases = (
        Case.objects.filter(suite__workspace=workspace)
        .filter(search_filter(query))
        .select_related("suite")
        .order_by("suite__path", "position")
    )
    page = Paginator(cases, per_page).get_page(page_number)
    groups: list[SuiteMatches] = []
    for case in page.object_list:
        if not groups or groups[-1].suite.pk != case.suite_id:
            groups.append(SuiteMatches(case.suite, []))
        groups[-1].cases.append(case)
    return WorkspaceSearch(query, page, groups)

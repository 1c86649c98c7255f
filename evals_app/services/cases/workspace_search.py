"""Searching every suite of a workspace at once: the cases whose id or text holds the query,
grouped by suite, a page at a time (docs/user-guide.md, "Searching")."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.core.paginator import Page, Paginator

from ...models import Case, Suite, Workspace
from .work_list import search_filter


class MatchedText(NamedTuple):
    """Where a case holds the query: a little of the text around it, the words as written."""

    before: str
    match: str
    after: str


@dataclass(frozen=True)
class SuiteMatches:
    """The matching cases of one suite on the page shown, in the suite's order, with the text
    each matched by its id (when it was not its id)."""

    suite: Suite
    cases: list[Case]
    found: dict[int, MatchedText] = field(default_factory=dict)


# How much of the text on each side of a match the results show.
CONTEXT = 60


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
        found = matched_text(case, query)
        if found is not None:
            groups[-1].found[case.pk] = found
    return WorkspaceSearch(query, page, groups)


def matched_text(case: Case, query: str) -> MatchedText | None:
    """The first text of the case's document that holds `query` (ignoring case, as the search
    does), around the match; None when its id holds it (the results show the id anyway) or no
    text does (the index also reads the document's keys)."""
    wanted = query.casefold()
    if wanted in case.case_id.casefold():
        return None
    for text in _texts(case.document):
        # casefold() may change a text's length (ß → ss): look for the query in a text of the
        # same length, lower(), and fall back on the whole text.
        at = text.lower().find(query.lower())
        if at < 0:
            if wanted in text.casefold():
                return MatchedText("", text[: 2 * CONTEXT], "…" if len(text) > 2 * CONTEXT else "")
            continue
        end = at + len(query)
        start = max(at - CONTEXT, 0)
        before = ("…" if start else "") + text[start:at]
        after = text[end : end + CONTEXT] + ("…" if end + CONTEXT < len(text) else "")
        return MatchedText(before, text[at:end], after)
    return None


def _texts(value: Any) -> Iterator[str]:
    """The strings of a case's document, in its order."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)

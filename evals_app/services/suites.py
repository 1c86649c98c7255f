"""Suites (eval files) of a workspace, and the summary of their cases that the suite page lists."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from django.core.paginator import Page, Paginator
from django.db import transaction
from django.db.models import (
    Count,
    Exists,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.functions import Coalesce

from ..models import Case, CommentThread, ContentBlock, Suite, Workspace
from ..request_numbers import MAX_DATABASE_INTEGER, parse_number
from .case_summaries import StoredFormatting, refresh_summaries, stored_formatting
from .formatting import WorkspaceFormatter
from .workspace_paths import check_path_free, clean_eval_path


def create_suite(workspace: Workspace, path: str) -> Suite:
    """A new eval file at `path` with no cases (`$schema` and `evalcases: []` on export).

    Raises WorkspacePathError when the path is malformed, not .yaml/.yml, or taken.
    """
    path = clean_eval_path(path)
    with transaction.atomic():
        check_path_free(workspace, path)
        return Suite.objects.create(workspace=workspace, path=path)


@dataclass(frozen=True)
class CaseSummary:
    """One row of the suite page: the case, its input turns, and how it formats (lm mode)."""

    case: Case
    input_turns: int
    formatted: StoredFormatting | None
    # Set instead of `formatted` when the stored case is not a valid eval case (e.g. no turns).
    problem: str = ""


def search_cases(suite: Suite, query: str = "") -> QuerySet[Case]:
    """The suite's cases in order; with `query`, those whose id, outcome or any turn's content
    (text, or a referenced file's path) contains it, ignoring case."""
    # A subquery rather than a join and GROUP BY: it is counted only for the cases listed.
    threads = CommentThread.objects.filter(case=OuterRef("pk"), resolved_at__isnull=True)
    open_threads = threads.order_by().values("case").annotate(count=Count("pk")).values("count")
    cases = suite.cases.annotate(
        open_threads=Coalesce(Subquery(open_threads), 0, output_field=IntegerField())
    ).order_by("position")
    query = query.strip()
    return cases.filter(_matching(query)) if query else cases


def _matching(query: str) -> Q:
    in_turns = ContentBlock.objects.filter(message__case=OuterRef("pk"), value__icontains=query)
    return Q(case_id__icontains=query) | Q(outcome__icontains=query) | Q(Exists(in_turns))


class _CountedPaginator(Paginator):
    """A Paginator told how many items there are (they were counted along with the page)."""

    def __init__(self, object_list: QuerySet[Case], per_page: int, count: int) -> None:
        super().__init__(object_list, per_page)
        self.known_count = count

    @cached_property
    def count(self) -> int:
        """The number of items, as given."""
        return self.known_count


def page_of_cases(suite: Suite, query: str, number: str | None, per_page: int) -> tuple[Page, int]:
    """Page `number` of `search_cases(suite, query)` (as `Paginator.get_page` picks it), and
    how many cases the suite has in all.

    One query: each row carries the number of matching cases and of all cases, counted by
    subqueries that do not depend on the row (so counted once), while the rest of the row is
    read for the page only.
    """
    query = query.strip()
    everything = Case.objects.filter(suite=suite)
    matching = everything.filter(_matching(query)) if query else everything
    cases = search_cases(suite, query).annotate(matching=_count(matching), total=_count(everything))
    # Past the last page shows the last page; a number no query can hold counts as that too.
    wanted = min(max(parse_number(number) or 1, 1), MAX_DATABASE_INTEGER // per_page)
    rows = list(cases[(wanted - 1) * per_page : wanted * per_page])
    if rows:
        paginator = _CountedPaginator(cases, per_page, rows[0].matching)
        return Page(rows, wanted, paginator), rows[0].total
    # Past the last page, or nothing matches: counted apart (rare).
    paginator = _CountedPaginator(cases, per_page, cases.count())
    return paginator.get_page(wanted), suite.cases.count()


def _count(cases: QuerySet[Case]) -> Coalesce:
    counted = cases.order_by().values("suite").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted), 0, output_field=IntegerField())


def summarize_cases(
    formatter: WorkspaceFormatter, suite: Suite, cases: Iterable[Case]
) -> list[CaseSummary]:
    """The stored summary of each case, recomputed first where it is out of date: the number
    of queries does not grow with the number of cases."""
    listed = list(cases)
    refresh_summaries(formatter, suite, listed)
    return [
        CaseSummary(case, case.input_turns, stored_formatting(case), case.format_problem)
        for case in listed
    ]

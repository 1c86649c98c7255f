"""Suites (eval files) of a workspace, and the summary of their cases that the suite page lists."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from django.contrib.auth.models import User
from django.core.paginator import Page, Paginator
from django.db import transaction
from django.db.models import (
    Count,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.functions import Coalesce

from ..eval_files.dialects import EVAL_SCHEMA
from ..models import ActivityRecord, Case, CommentThread, Suite, Workspace
from .activity import record_activity
from .case_summaries import StoredFormatting, refresh_summaries, stored_formatting
from .formatting import WorkspaceFormatter
from .workspace_paths import check_path_free, clean_eval_path


def create_suite(workspace: Workspace, path: str, actor: User | None = None) -> Suite:
    """A new eval file at `path` with no cases (`$schema` and `evalcases: []` on export).

    Raises WorkspacePathError when the path is malformed, not .yaml/.yml, or taken.
    """
    path = clean_eval_path(path)
    with transaction.atomic():
        check_path_free(workspace, path)
        suite = Suite.objects.create(
            workspace=workspace,
            path=path,
            document={"$schema": EVAL_SCHEMA, "evalcases": []},
            cases_key="evalcases",
        )
        record_activity(workspace, actor, ActivityRecord.Action.SUITE_CREATED, path, suite=suite)
    return suite


def rename_suite(suite: Suite, path: str, actor: User | None = None) -> Suite:
    """Move the eval file `suite` to `path`; its cases keep their ids, reviews and history.

    Raises WorkspacePathError when the path is malformed, not .yaml/.yml, or taken.
    """
    path = clean_eval_path(path)
    if path == suite.path:
        return suite
    with transaction.atomic():
        locked = Suite.objects.select_for_update().get(pk=suite.pk)
        check_path_free(suite.workspace, path, suite=locked)
        old_path = locked.path
        locked.path = path
        locked.save(update_fields=["path", "updated_at"])
        # File references resolve from the eval file's folder upward (README, "Formatting"),
        # so the same cases may find other files, or none, at the new path.
        Case.objects.filter(suite=locked).update(summary_current=False)
        action = ActivityRecord.Action.SUITE_RENAMED
        record_activity(suite.workspace, actor, action, path, f"from {old_path}", suite=locked)
    suite.path = path
    return suite


def delete_suite(suite: Suite, actor: User | None = None) -> int:
    """Delete the eval file `suite` with its cases (their reviews, comments and history);
    returns how many cases went with it."""
    with transaction.atomic():
        locked = Suite.objects.select_for_update().get(pk=suite.pk)
        cases = locked.cases.count()
        locked.delete()
        detail = f"with {cases} case{'s' * (cases != 1)}"
        action = ActivityRecord.Action.SUITE_DELETED
        record_activity(suite.workspace_id, actor, action, locked.path, detail)
    return cases


@dataclass(frozen=True)
class CaseSummary:
    """One row of the suite page: the case, its input turns, and how it formats (lm mode)."""

    case: Case
    input_turns: int
    formatted: StoredFormatting | None
    # Set instead of `formatted` when the stored case is not a valid eval case (e.g. no turns).
    problem: str = ""


def search_cases(suite: Suite, query: str = "") -> QuerySet[Case]:
    """The suite's cases in order; with `query`, those whose id or any text of the case (its
    turns, referenced files' paths, outcome, other fields) contains it, ignoring case."""
    # A subquery rather than a join and GROUP BY: it is counted only for the cases listed.
    threads = CommentThread.objects.filter(case=OuterRef("pk"), resolved_at__isnull=True)
    open_threads = threads.order_by().values("case").annotate(count=Count("pk")).values("count")
    cases = suite.cases.annotate(
        open_threads=Coalesce(Subquery(open_threads), 0, output_field=IntegerField())
    ).order_by("position")
    query = query.strip()
    return cases.filter(_matching(query)) if query else cases


def _matching(query: str) -> Q:
    # The document is stored as JSON text: the query is looked for as JSON writes it, so
    # quotes, backslashes and line breaks in it match too.
    as_json = json.dumps(query, ensure_ascii=False)[1:-1]
    return Q(case_id__icontains=query) | Q(document__icontains=as_json)


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
    try:
        wanted = max(int(number or 1), 1)
    except ValueError:
        wanted = 1
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

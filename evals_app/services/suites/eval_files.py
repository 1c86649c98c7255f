"""Suites (eval files) of a workspace, and the summary of their cases that the suite page lists."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from django.contrib.auth.models import User
from django.core.paginator import Page, Paginator
from django.db import transaction
from django.db.models import Count, F, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.expressions import Combinable
from django.db.models.functions import Coalesce

from ...eval_files.dialects import referenced_file
from ...eval_files.parts_2026 import TURNS_KEY
from ...models import ActivityRecord, Case, CommentThread, Suite, Workspace
from ...request_numbers import MAX_DATABASE_INTEGER, parse_number
from ..cases.summaries import (
    StoredFormatting,
    is_current,
    mark_suites_stale,
    stored_formatting,
)
from ..cases.tags import tags_of
from ..cases.variants import VariantLink, variant_link
from ..cases.work_list import CaseListing, listed_cases, ordered_cases
from ..profiles import DEFAULT, SuiteProfile
from ..workspaces.activity import record_activity
from ..workspaces.paths import check_path_free, clean_eval_path


def create_suite(
    workspace: Workspace,
    path: str,
    actor: User | None = None,
    profile: SuiteProfile = DEFAULT,
) -> Suite:
    """A new eval file at `path` with no cases, written in `profile`'s format (today's unless
    another period is chosen: docs/user-guide.md, "Workspaces and suites").

    Raises WorkspacePathError when the path is malformed, not .yaml/.yml, or taken.
    """
    path = clean_eval_path(path)
    new = profile.new_suite()
    with transaction.atomic():
        check_path_free(workspace, path)
        suite = Suite.objects.create(
            workspace=workspace,
            path=path,
            document=new.document,
            cases_key=new.cases_key,
            profile=profile.name,
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
        # File references resolve from the eval file's folder upward (docs/formatting.md),
        # so the same cases may find other files, or none, at the new path.
        mark_suites_stale(Suite.objects.filter(pk=locked.pk), locked.workspace_id)
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
class CaseFileReference:
    """A file of cases an eval file refers to (`tests: file://cases.jsonl`, or an entry
    `- file://more.yaml`), as written, and the suite it was imported as (None when it was not)."""

    written: str
    suite: Suite | None


def case_file_references(suite: Suite) -> list[CaseFileReference]:
    """The files of cases `suite`'s file refers to, in the order it names them (one query)."""
    entries = suite.document.get(suite.cases_key) if suite.cases_key else None
    written = [entries] if isinstance(entries, str) else []
    if isinstance(entries, list):
        written = [entry for entry in entries if isinstance(entry, str)]
    if not written:
        return []
    paths = {reference: referenced_file(suite.path, reference) for reference in written}
    found = {
        other.path: other for other in suite.workspace.suites.filter(path__in=set(paths.values()))
    }
    return [CaseFileReference(reference, found.get(paths[reference])) for reference in written]


@dataclass(frozen=True)
class CaseSummary:
    """One row of the suite page: the case, its input turns, and how it formats (lm mode)."""

    case: Case
    input_turns: int
    formatted: StoredFormatting | None
    # Set instead of `formatted` when the stored case is not a valid eval case (e.g. no turns).
    problem: str = ""
    tags: tuple[str, ...] = ()
    # False while the worker has yet to recompute it: the page says so instead of showing it.
    current: bool = True
    # Its place in the suite's order (1, 2, 3, …): positions have gaps (cases/positions.py).
    place: int = 0

    @property
    def conversation_turns(self) -> int | None:
        """How many turns a conversation test has (docs/formats.md, "Today's tests"); None
        for a case that is not one: the page describes it by its input turns."""
        document = self.case.document
        turns = document.get(TURNS_KEY) if isinstance(document, dict) else None
        return len(turns) if isinstance(turns, list) else None

    @property
    def variant_of(self) -> VariantLink | None:
        """The case this one is a variant of (docs/user-guide.md, "Variants"), if any."""
        return variant_link(self.case.document)


def _with_open_threads(cases: QuerySet[Case]) -> QuerySet[Case]:
    """`cases`, each with its number of unresolved comment threads (`open_threads`)."""
    # A subquery rather than a join and GROUP BY: it is counted only for the cases listed.
    threads = CommentThread.objects.filter(case=OuterRef("pk"), resolved_at__isnull=True)
    open_threads = threads.order_by().values("case").annotate(count=Count("*")).values("count")
    return cases.annotate(
        open_threads=Coalesce(Subquery(open_threads), 0, output_field=IntegerField())
    )


class _CountedPaginator(Paginator):
    """A Paginator told how many items there are (they were counted along with the page)."""

    def __init__(self, object_list: QuerySet[Case], per_page: int, count: int) -> None:
        super().__init__(object_list, per_page)
        self.known_count = count

    @cached_property
    def count(self) -> int:
        """The number of items, as given."""
        return self.known_count


def page_of_cases(
    suite: Suite,
    listing: CaseListing,
    number: str | None,
    per_page: int,
    status: Combinable | None = None,
) -> tuple[Page, int]:
    """Page `number` (as `Paginator.get_page` picks it) of the cases `listing` keeps, in its
    order, and how many cases the suite has in all; each case's `shown_status` is `status`
    (the review status its reader sees, work_list.listed_cases).

    One query (two with a tag filter, see case_tags.py): each row carries the number of listed
    cases and of all cases, counted by subqueries that do not depend on the row (so counted
    once), while the rest of the row is read for the page only.
    """
    everything = Case.objects.filter(suite=suite)
    matching = listed_cases(suite, listing, status)
    cases = ordered_cases(_with_open_threads(matching), listing.sort).annotate(
        matching=_count(matching), total=_count(everything), shown_status=F("shown_status")
    )
    # Past the last page shows the last page; a number no query can hold counts as that too.
    wanted = min(max(parse_number(number) or 1, 1), MAX_DATABASE_INTEGER // per_page)
    rows = list(cases[(wanted - 1) * per_page : wanted * per_page])
    if rows:
        paginator = _CountedPaginator(cases, per_page, rows[0].matching)
        return Page(rows, wanted, paginator), rows[0].total
    # Nothing matches (an empty first page), or past the last page: counted apart.
    paginator = _CountedPaginator(cases, per_page, 0 if wanted == 1 else cases.count())
    return paginator.get_page(wanted), suite.cases.count()


def _count(cases: QuerySet[Case]) -> Coalesce:
    counted = cases.order_by().values("suite").annotate(n=Count("*")).values("n")
    return Coalesce(Subquery(counted), 0, output_field=IntegerField())


def summarize_cases(
    suite: Suite, cases: Sequence[Case], places: Sequence[int] = ()
) -> list[CaseSummary]:
    """The stored summary of each case, as stored: one out of date is marked so, never
    recomputed here (the worker does, services/cases/summaries.py); `places` are the cases'
    places in the suite, in the same order."""
    places = places or [0] * len(cases)
    return [
        CaseSummary(
            case,
            case.input_turns,
            stored_formatting(case),
            case.format_problem,
            tuple(tags_of(case)),
            is_current(case, suite),
            place,
        )
        for case, place in zip(cases, places, strict=True)
    ]

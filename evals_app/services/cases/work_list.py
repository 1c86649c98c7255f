"""The suite page as a work list: which cases it shows (search and filters) and in what order.

A listing is what the page's query string says (`q`, `status`, `warnings`, `lint`, `markers`,
`conflicts`, `tag`, `score`, `sort`), so a filtered, sorted view of a suite is a URL that can be
shared.
The warnings, lint and role-marker filters read the stored case summaries
(services/cases/summaries.py) as they are: while the worker recomputes some, the page says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from django.db import connection
from django.db.models import Case as Choose
from django.db.models import F, IntegerField, Q, QuerySet, Value, When
from django.db.models.expressions import Combinable

from ...models import Case, ReviewStatus, Suite
from ..review.scores import cases_scored, parse_score_filter
from .positions import places_of
from .search_index import search_filter as indexed_search
from .tags import cases_tagged

WARNINGS = {"with": "With warnings", "without": "Without warnings"}
# The findings of the one-case lint rules, stored with the summaries (docs/user-guide.md).
LINT = {"with": "Has lint findings", "without": "No lint findings"}
MARKERS = {"markers": "Role markers", "flat": "Flat", "cannot": "Cannot be formatted"}
# A case a sync left in conflict with the repository (docs/sync.md, "Conflicts").
CONFLICTS = {"open": "In conflict", "none": "Not in conflict"}
MAX_SEARCH_LENGTH = 1000
# The value `sort` takes in the query string: the default (empty) is the suite's own order.
SORTS = {
    "": "Suite order",
    "id": "Id, A to Z",
    "-id": "Id, Z to A",
    "status": "Review status, draft first",
    "-status": "Review status, approved first",
    "-changed": "Last change, newest first",
    "changed": "Last change, oldest first",
}


@dataclass(frozen=True)
class CaseListing:
    """Which cases of a suite to list, and in what order; empty strings mean "any"."""

    q: str = ""
    status: str = ""
    warnings: str = ""
    lint: str = ""
    markers: str = ""
    conflicts: str = ""
    tag: str = ""
    # A review form's answer, as `criterion id:value` (services/review/scores.py).
    score: str = ""
    sort: str = ""

    @property
    def is_filtered(self) -> bool:
        """Whether some cases of the suite may be left out."""
        filters = (self.q, self.status, self.warnings, self.lint, self.markers, self.conflicts)
        return any((*filters, self.tag, self.score))

    @property
    def filters_described(self) -> list[str]:
        """Every filter in use, in words, so the page's count says all that it counts (a
        search's count is also narrowed by the review, warnings, markers and tag filters)."""
        described = [f"match “{self.q}”"] if self.q else []
        if self.status in ReviewStatus.values:
            described.append(f"review: {ReviewStatus(self.status).label}")
        if self.warnings in WARNINGS:
            described.append(WARNINGS[self.warnings].lower())
        if self.lint in LINT:
            described.append(LINT[self.lint].lower())
        if self.markers in MARKERS:
            described.append(f"formatting: {MARKERS[self.markers]}")
        if self.tag:
            described.append(f"tagged “{self.tag}”")
        if parse_score_filter(self.score):
            described.append(f"scored “{self.score.partition(':')[2]}”")
        return described

    @property
    def in_suite_order(self) -> bool:
        """Whether the list is the whole suite in its own order (where moving cases makes sense)."""
        return not self.is_filtered and not self.sort

    @property
    def needs_summaries(self) -> bool:
        """Whether the filters read the stored formatting summaries."""
        return bool(self.warnings or self.lint or self.markers)

    def parameters(self) -> dict[str, str]:
        """The query string's parameters for this listing, empty ones left out."""
        return {name: value for name, value in asdict(self).items() if value}


def listed_cases(
    suite: Suite, listing: CaseListing, status: Combinable | None = None
) -> QuerySet[Case]:
    """The cases of `suite` that `listing` keeps, unordered (one query when it filters by tag).
    Their review status, to filter and sort by, is `status` (permissions.status_seen_by: what
    the person listing them sees), their own by default."""
    cases: QuerySet[Case] = Case.objects.filter(suite=suite)
    cases = cases.alias(shown_status=status or F("status"))
    # No one searches for more than a paragraph, and SQLite refuses LIKE patterns over 50,000
    # bytes (an error, not an empty result).
    query = listing.q.strip()[:MAX_SEARCH_LENGTH]
    if query:
        cases = cases.filter(_matching(query))
    if listing.status:
        cases = cases.filter(shown_status=listing.status)
    if listing.warnings == "with":
        cases = cases.filter(role_markers__isnull=False).exclude(format_warnings=[])
    elif listing.warnings == "without":
        cases = cases.filter(role_markers__isnull=False, format_warnings=[])
    if listing.lint == "with":
        cases = cases.filter(role_markers__isnull=False).exclude(lint_findings=[])
    elif listing.lint == "without":
        cases = cases.filter(role_markers__isnull=False, lint_findings=[])
    if listing.markers == "markers":
        cases = cases.filter(role_markers=True)
    elif listing.markers == "flat":
        cases = cases.filter(role_markers=False)
    elif listing.markers == "cannot":
        cases = cases.filter(role_markers__isnull=True)
    if listing.conflicts == "open":
        cases = cases.filter(theirs_document__isnull=False)
    elif listing.conflicts == "none":
        cases = cases.filter(theirs_document__isnull=True)
    if listing.tag:
        cases = cases_tagged(cases, listing.tag)
    score = parse_score_filter(listing.score)
    if score:
        cases = cases_scored(cases, *score)
    return cases


def ordered_cases(cases: QuerySet[Case], sort: str) -> QuerySet[Case]:
    """`cases` (from listed_cases) in the order `sort` names (see SORTS); ties keep the
    suite's order."""
    descending = sort.startswith("-")
    key = sort.removeprefix("-")
    if key == "id":
        field = "case_id"
    elif key == "status":
        # The workflow's order, not the alphabet's: draft, in review, changes requested, approved.
        order = [
            When(shown_status=status, then=Value(rank)) for rank, status in enumerate(ReviewStatus)
        ]
        cases = cases.annotate(status_rank=Choose(*order, output_field=IntegerField()))
        field = "status_rank"
    elif key == "changed":
        field = "updated_at"
    else:
        return cases.order_by("position")
    return cases.order_by(f"-{field}" if descending else field, "position")


def search_filter(query: str) -> Q:
    """What the suite page's search keeps, for any set of cases (the workspace's search too);
    `query` is cut to MAX_SEARCH_LENGTH."""
    return _matching(query.strip()[:MAX_SEARCH_LENGTH])


def _matching(query: str) -> Q:
    """A case whose id or any text of its document holds `query`, ignoring case, through the
    database's search index (search_index.py)."""
    return indexed_search(query, connection.vendor)


def places_on_page(
    suite: Suite, listing: CaseListing, cases: Sequence[Case], first: int
) -> list[int]:
    """The place in the suite (1, 2, 3, …) of each of `cases`, a page of `listing` whose first
    row is the `first` of the list: counted from the page in the suite's own order, else read
    from the suite's positions (one query)."""
    if listing.in_suite_order:
        return list(range(first, first + len(cases)))
    found = places_of(suite.cases.all(), [case.position for case in cases])
    return [found[case.position] for case in cases]

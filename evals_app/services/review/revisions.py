"""Revision history: every save of a case records the full case, who saved it and when."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Max

from ...models import Case, Revision


def record_revision(
    case: Case, author: User | None, summary: str, snapshot: dict[str, Any]
) -> Revision:
    """Add a revision of `case` holding `snapshot` (its mapping as just saved)."""
    last = case.revisions.aggregate(last=Max("number"))["last"] or 0
    return Revision.objects.create(
        case=case, number=last + 1, author=author, snapshot=snapshot, summary=summary
    )


def ensure_base_revision(case: Case, current: dict[str, Any]) -> None:
    """Record the case as it is now if it has no history yet (e.g. it came from an import).

    Imports do not write revisions, so that a 10,000-case import stays fast; the first change
    to such a case records where it started from, so its first diff has something to compare.
    """
    if not case.revisions.exists():
        record_revision(case, None, "as imported", current)


@dataclass(frozen=True)
class RevisionPage:
    """Revisions of a case, newest first, each with the one just before it (None for the
    first revision), and the number to continue below (`older`, None on the last page)."""

    pairs: list[tuple[Revision, Revision | None]]
    older: int | None
    first: bool  # whether the page starts at the newest revision


def revision_page(case: Case, below: int | None, size: int) -> RevisionPage:
    """At most `size` revisions of `case` numbered below `below` (from the newest when None),
    newest first: a page of a history that may hold thousands (docs/user-guide.md, "History")."""
    revisions = case.revisions.select_related("author", "suggestion__author").order_by("-number")
    if below is not None:
        revisions = revisions.filter(number__lt=below)
    # One more than shown: the revision before the page's oldest, to say what that one changed.
    rows = list(revisions[: size + 1])
    shown = rows[:size]
    before = [*rows[1:], None][: len(shown)]  # none for a case with no revision
    older = shown[-1].number if len(rows) > size else None
    return RevisionPage(list(zip(shown, before, strict=True)), older, below is None)

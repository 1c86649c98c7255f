"""Revision history: every save of a case records the full case, who saved it and when."""

from __future__ import annotations

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

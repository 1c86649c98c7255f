"""Restoring an old revision of a case (docs/user-guide.md, "Reviewing as a team"): in the
suite's current format, asked for first.

A revision saved before its suite was upgraded holds the older spellings; restoring it as it was
would put them back into a today's file. It is converted by the upgrade mapping instead (the
same one "Upgrade to today's format" uses), or refused when the mapping cannot read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User

from ...eval_files.errors import EvalFileError
from ...eval_files.upgrade import upgrade_case
from ...models import Case, Revision
from ..cases.editing import save_case
from ..profiles import writes_todays_format


class RestoreRefused(Exception):
    """The revision cannot be restored into the suite's current format; says why."""


@dataclass(frozen=True)
class RestorePlan:
    """What restoring `revision` writes (`document`; None when refused, with `refusal`), what
    converting it to the suite's format changed (`a` → `b`) and what the conversion notes."""

    revision: Revision
    document: dict[Any, Any] | None
    changes: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    refusal: str = ""


def plan_restore(case: Case, revision: Revision) -> RestorePlan:
    """What restoring `revision` of `case` would write; writes nothing."""
    snapshot = revision.snapshot
    if not writes_todays_format(case.suite):
        return RestorePlan(revision, snapshot)
    try:
        converted = upgrade_case(snapshot)
    except EvalFileError as error:
        reason = f"{error.field}: {error.message}" if error.field else error.message
        refusal = (
            f"Revision {revision.number} cannot be converted to the suite's format "
            f"(today's AgentV): {reason}."
        )
        return RestorePlan(revision, None, refusal=refusal)
    return RestorePlan(revision, converted.document, converted.changes, converted.notes)


def restore_revision(
    case: Case, revision: Revision, base_version: int, author: User | None = None
) -> Case:
    """Make `revision` the current state of `case` (a new revision), converted as
    `plan_restore` says. Raises RestoreRefused, CaseConflict when the case moved on since
    `base_version`, and EvalFileError when the result cannot be saved (its id is taken)."""
    plan = plan_restore(case, revision)
    if plan.document is None:
        raise RestoreRefused(plan.refusal)
    converted = " converted to today's format" if plan.changes else ""
    summary = f"restored revision {revision.number}{converted}"
    return save_case(case, plan.document, base_version, author, summary=summary)

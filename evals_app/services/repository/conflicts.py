"""Resolving a conflict a sync left on a case: take the repository's version, or keep mine.

Either way the conflict is cleared and the base moves, so the next sync sees the case as
settled (docs/sync.md, "Conflicts").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from ...models import Case, ReviewStatus, Suite, Workspace
from ..cases.editing import save_case
from ..cases.list_changes import delete_case


@dataclass(frozen=True)
class OpenConflict:
    """A case a sync left in conflict with the repository, as the pages and publish name it."""

    suite_pk: int
    case_pk: int
    suite_path: str
    case_id: str


def open_conflicts(
    workspace: Workspace, suite: Suite | None = None, *, approved_only: bool = False
) -> list[OpenConflict]:
    """The cases of the workspace (or of one suite; only approved ones with `approved_only`)
    in conflict, in the order of their suites and cases (one query)."""
    cases = Case.objects.filter(suite__workspace=workspace, theirs_document__isnull=False)
    if suite is not None:
        cases = cases.filter(suite=suite)
    if approved_only:
        cases = cases.filter(status=ReviewStatus.APPROVED)
    rows = cases.order_by("suite__path", "position").values_list(
        "suite_id", "pk", "suite__path", "case_id"
    )
    return [OpenConflict(*row) for row in rows]


class NoConflict(Exception):
    """The case has no conflict to resolve (someone resolved it already)."""


def take_theirs(case: Case, actor: User | None) -> Case | None:
    """Save the repository's version as a new revision (or delete the case, when the
    repository removed it); returns the case, None when it was deleted."""
    with transaction.atomic():
        current, theirs = _locked(case)
        if theirs == {}:
            delete_case(current, actor)
            return None
        saved = save_case(
            current, theirs, current.version, actor, summary="took the repository's version"
        )
        Case.objects.filter(pk=saved.pk).update(base_document=theirs, theirs_document=None)
        saved.base_document, saved.theirs_document = theirs, None
        return saved


def keep_mine(case: Case, actor: User | None) -> Case:
    """Keep the app's version: the repository's version becomes the base (a case the
    repository removed becomes one only the app has), to be published later."""
    with transaction.atomic():
        current, theirs = _locked(case)
        current.base_document = None if theirs == {} else theirs
        current.theirs_document = None
        current.save(update_fields=["base_document", "theirs_document", "updated_at"])
        return current


def _locked(case: Case) -> tuple[Case, dict[Any, Any]]:
    """The case, locked, and the repository's version of it. Raises NoConflict."""
    # The suite first, as every service that changes a suite's cases locks it (services/cases).
    Suite.objects.select_for_update().get(pk=case.suite_id)
    current = Case.objects.select_for_update().select_related("suite").get(pk=case.pk)
    if current.theirs_document is None:
        raise NoConflict(f"{current.case_id} has no conflict with the repository")
    return current, current.theirs_document

"""Deleted cases: what a deletion keeps, restoring it, and purging it after AGENTV_TRASH_DAYS
(docs/user-guide.md, "Deleted cases").

A deletion moves the case's rows into a `DeletedCase` (models/trash.py): the case is gone from
every list, search, export and publish with no query changed. A restore writes the same rows
back with their ids, so their links to each other (a review's event, a suggestion's revision,
a comment's thread) hold, and the activity and run results that named the case name it again.
A row that points at something deleted meanwhile (a reviewer's account, a review criterion)
loses that link as the deletion of that thing would have done. Expired records are purged by
the next deletion or restore in the workspace; the Deleted list never shows them.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth.models import User
from django.core import serializers
from django.db import models, transaction
from django.db.models import QuerySet
from django.utils import timezone

from ...models import (
    ActivityRecord,
    Case,
    CaseReview,
    Comment,
    CommentThread,
    DeletedCase,
    Notification,
    ReviewAssignment,
    ReviewEvent,
    ReviewScore,
    Revision,
    RunResult,
    Suggestion,
    Suite,
    Workspace,
)
from ..workspaces.activity import record_activity
from .positions import end_positions
from .summaries import refresh_case

# What belongs to a case, in the order the rows go back (each after the rows it points at).
KEPT = (
    Case,
    Revision,
    ReviewEvent,
    CaseReview,
    ReviewScore,
    CommentThread,
    Comment,
    Suggestion,
    ReviewAssignment,
    Notification,
)
# Rows outside the case that point at it with SET_NULL: relinked on restore while they exist.
LINKED: dict[str, tuple[type[models.Model], str]] = {
    "activity": (ActivityRecord, "case"),
    "run_results": (RunResult, "case"),
}


class RestoreError(ValueError):
    """A deleted case that cannot go back, with the reason in words."""


class Restored(NamedTuple):
    """What a restore put back: the cases, in their suites' order, and the suite of the first."""

    case_ids: list[str]
    suite: Suite


def trash_days() -> int:
    """How many days a deleted case can be restored (AGENTV_TRASH_DAYS)."""
    return int(settings.AGENTV_TRASH_DAYS)


def trash_cases(cases: Sequence[Case], actor: User | None) -> str:
    """Delete `cases` (of one suite, locked by the caller), keeping each restorable; returns
    the batch that an Undo of this deletion restores ("" when there was nothing to delete)."""
    if not cases:
        return ""
    batch = uuid.uuid4().hex
    now = timezone.now()
    workspace_id = cases[0].suite.workspace_id
    _purge(workspace_id, now)
    pks = [case.pk for case in cases]
    records = [
        DeletedCase(
            workspace_id=workspace_id,
            suite_id=case.suite_id,
            case_id=case.case_id,
            position=case.position,
            batch=batch,
            deleted_by=actor,
            deleted_at=now,
            rows=_dumped(_rows_of(case.pk)),
            links={
                name: list(
                    model._default_manager.filter(**{f"{field}_id": case.pk}).values_list(
                        "pk", flat=True
                    )
                )
                for name, (model, field) in LINKED.items()
            },
        )
        for case in cases
    ]
    DeletedCase.objects.bulk_create(records)
    Case.objects.filter(pk__in=pks).delete()
    return batch


def deleted_cases(workspace: Workspace) -> QuerySet[DeletedCase]:
    """The workspace's deleted cases that can still be restored, newest first."""
    cutoff = timezone.now() - timedelta(days=trash_days())
    records = DeletedCase.objects.filter(workspace=workspace, deleted_at__gte=cutoff)
    return records.select_related("suite", "deleted_by").defer("rows")


def restore(workspace: Workspace, actor: User | None, *, batch: str = "", pk: int = 0) -> Restored:
    """Put back the deleted cases of `batch` (an Undo) or the one `pk` (the Deleted list), each
    at its old place when it is free, else at the end of its suite. All or nothing: a case
    whose suite now has a case with its id refuses the whole restore, saying so."""
    with transaction.atomic():
        records = list(
            deleted_cases(workspace)
            .filter(**({"batch": batch} if batch else {"pk": pk}))
            .select_for_update(of=("self",))
            .defer(None)
            .order_by("position")
        )
        if not records:
            raise RestoreError("That deleted case is no longer in the Deleted list.")
        suites = {record.suite_id for record in records}
        # Every suite concerned, locked in one order (as a move does), then the checks.
        list(Suite.objects.select_for_update().filter(pk__in=suites).order_by("pk"))
        _purge(workspace.pk, timezone.now())
        for record in records:
            if Case.objects.filter(suite_id=record.suite_id, case_id=record.case_id).exists():
                raise RestoreError(
                    f"{record.suite.path} already has a case with id {record.case_id!r}: "
                    "rename or delete that one first."
                )
        for record in records:
            _put_back(record)
        DeletedCase.objects.filter(pk__in=[record.pk for record in records]).delete()
        ids = [record.case_id for record in records]
        first = records[0].suite
        if len(records) == 1:
            case = Case.objects.get(suite_id=first.pk, case_id=ids[0])
            action = ActivityRecord.Action.CASE_RESTORED
            record_activity(workspace, actor, action, ids[0], f"to {first.path}", case=case)
        else:
            action = ActivityRecord.Action.CASES_RESTORED
            detail = f"{len(ids)} cases, to {first.path}"
            record_activity(workspace, actor, action, ", ".join(ids)[:900], detail)
    return Restored(ids, first)


def _rows_of(case_pk: int) -> Iterable[models.Model]:
    """Every row that belongs to the case, in the order of KEPT."""
    yield from Case.objects.filter(pk=case_pk)
    yield from Revision.objects.filter(case_id=case_pk).order_by("pk")
    yield from ReviewEvent.objects.filter(case_id=case_pk).order_by("pk")
    yield from CaseReview.objects.filter(case_id=case_pk).order_by("pk")
    yield from ReviewScore.objects.filter(review__case_id=case_pk).order_by("pk")
    yield from CommentThread.objects.filter(case_id=case_pk).order_by("pk")
    yield from Comment.objects.filter(thread__case_id=case_pk).order_by("pk")
    yield from Suggestion.objects.filter(case_id=case_pk).order_by("pk")
    yield from ReviewAssignment.objects.filter(case_id=case_pk).order_by("pk")
    yield from Notification.objects.filter(case_id=case_pk).order_by("pk")


def _dumped(rows: Iterable[models.Model]) -> str:
    """The rows as Django's "python" serializer gives them, in JSON: times to the microsecond
    (Django's JSON serializer keeps milliseconds), so that they come back as they were."""

    def moment(value: object) -> str:
        if isinstance(value, datetime):
            return value.isoformat()
        raise TypeError(f"not a value of a kept row: {type(value).__name__}")

    return json.dumps(serializers.serialize("python", rows), default=moment)


def _put_back(record: DeletedCase) -> None:
    """Write the record's rows again, the case at its old position or at the end."""
    suite = record.suite
    exists: dict[tuple[type[models.Model], Any], bool] = {}
    for deserialized in serializers.deserialize("python", json.loads(record.rows)):
        row = deserialized.object
        if isinstance(row, Case):
            row.suite_id = suite.pk
            siblings = suite.cases.all()
            if siblings.filter(position=row.position).exists():
                row.position = end_positions(siblings)[0]
            refresh_case(row, suite)  # the workspace's files may have changed meanwhile
        elif not _links_hold(row, exists):
            continue
        deserialized.save(force_insert=True)
        exists[(type(row), row.pk)] = True
    case_pk = Case.objects.only("pk").get(suite=suite, case_id=record.case_id).pk
    for name, (model, field) in LINKED.items():
        model._default_manager.filter(pk__in=record.links.get(name, [])).update(
            **{f"{field}_id": case_pk}
        )


def _links_hold(row: models.Model, exists: dict[tuple[type[models.Model], Any], bool]) -> bool:
    """Clear the links of `row` to rows deleted meanwhile (SET_NULL links), or say that the row
    goes too (a CASCADE link), as deleting what it points at would have done."""
    for field in row._meta.concrete_fields:
        if not isinstance(field, models.ForeignKey):
            continue
        value = getattr(row, field.attname)
        if value is None:
            continue
        target = field.related_model
        key = (target, value)
        if key not in exists:
            exists[key] = target._base_manager.filter(pk=value).exists()
        if exists[key]:
            continue
        if field.remote_field.on_delete is models.SET_NULL:
            setattr(row, field.attname, None)
        else:
            return False
    return True


def _purge(workspace_id: int, now: datetime) -> None:
    """Remove the workspace's deleted cases older than AGENTV_TRASH_DAYS."""
    cutoff = now - timedelta(days=trash_days())
    DeletedCase.objects.filter(workspace_id=workspace_id, deleted_at__lt=cutoff).delete()

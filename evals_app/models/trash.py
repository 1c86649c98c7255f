"""Deleted cases, restorable for a while (docs/user-guide.md, "Deleted cases").

A deleted case leaves the `Case` table, so every query of cases, the publish that writes the
suite's file included, stays as it is: a case in the trash is simply not a case. What it was
(the case row and every row that belongs to it: revisions, threads and comments, review events,
reviews and their scores, assignments, suggestions, notifications) is kept here as Django's
serialized rows, with their ids, and put back as they were on restore.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .workspace import Suite, Workspace


class DeletedCase(models.Model):
    """One deleted case of a suite, with its review data and history."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    # A deleted suite takes its deleted cases with it (its own deletion is confirmed apart).
    suite = models.ForeignKey(Suite, on_delete=models.CASCADE, related_name="deleted_cases")
    case_id = models.CharField("id", max_length=200)
    # The case's place when it was deleted: it goes back there when the place is free.
    position = models.PositiveIntegerField()
    # The cases deleted by one action share it: their Undo restores them together.
    batch = models.CharField(max_length=32, db_index=True)
    deleted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    deleted_at = models.DateTimeField(db_index=True)
    # The rows, as Django's "python" serializer gives them, in JSON, in the order they go back.
    rows = models.TextField()
    # Rows outside the case that linked to it until the deletion cleared the link:
    # {"activity": [pk, …], "run_results": [pk, …]}.
    links = models.JSONField(default=dict)

    class Meta:
        ordering = ["-deleted_at", "-pk"]
        indexes = [models.Index(fields=["workspace", "-deleted_at"], name="deleted_case_newest")]

    def __str__(self) -> str:
        return f"{self.case_id} (deleted from {self.suite})"

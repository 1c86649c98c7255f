"""The record of changes that leave no revision behind: suites, files, patterns, members."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .case import Case
from .workspace import Suite, Workspace, WorkspaceFile


class ActivityRecord(models.Model):
    """One change to a workspace: who made it, when, and to what.

    `subject` names the object as it was (a suite's path, a case's id, a username), so the
    record still reads well after the object is renamed or deleted; the links to the object
    are cleared when it is deleted.
    """

    class Action(models.TextChoices):
        WORKSPACE_CREATED = "workspace_created", "created the workspace"
        WORKSPACE_RENAMED = "workspace_renamed", "renamed the workspace"
        CASE_DELETED = "case_deleted", "deleted case"
        CASE_MOVED = "case_moved", "moved case"
        CASES_DELETED = "cases_deleted", "deleted cases"
        CASE_RESTORED = "case_restored", "restored case"
        CASES_RESTORED = "cases_restored", "restored cases"
        CASES_MOVED = "cases_moved", "moved cases"
        SUITE_CREATED = "suite_created", "created suite"
        SUITE_IMPORTED = "suite_imported", "imported suite"
        SUITE_RENAMED = "suite_renamed", "renamed suite"
        SUITE_DELETED = "suite_deleted", "deleted suite"
        SUITE_EDITED = "suite_edited", "changed the fields of suite"
        PROFILE_CHANGED = "profile_changed", "changed the profile of suite"
        SUITE_UPGRADED = "suite_upgraded", "upgraded suite"
        FILE_ADDED = "file_added", "added file"
        FILE_EDITED = "file_edited", "edited file"
        FILE_DELETED = "file_deleted", "deleted file"
        PATTERNS_CHANGED = "patterns_changed", "changed the guideline patterns"
        MEMBER_ADDED = "member_added", "added member"
        MEMBER_CHANGED = "member_changed", "changed the role of"
        MEMBER_REMOVED = "member_removed", "removed member"
        SYNCED = "synced", "synced with the repository at"
        PUBLISHED = "published", "published to the repository at"

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="activity")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    action = models.CharField(max_length=20, choices=Action.choices)
    subject = models.CharField(max_length=1000, blank=True)
    detail = models.TextField(blank=True)
    suite = models.ForeignKey(
        Suite, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    case = models.ForeignKey(
        Case, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    file = models.ForeignKey(
        WorkspaceFile, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["workspace", "-created_at"], name="activity_newest")]

    def __str__(self) -> str:
        return f"{self.actor} {self.get_action_display()} {self.subject}".strip()

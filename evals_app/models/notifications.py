"""Notifications: what a member is told about (mentions, assignments, requests for changes,
approvals), in the app's inbox and by email as they choose (docs/user-guide.md,
"Mentions and notifications")."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .case import Case
from .ordered_json import OrderedJSONField
from .workspace import Workspace


class Notification(models.Model):
    """One thing to tell one person, with the page it is about."""

    class Kind(models.TextChoices):
        MENTION = "mention", "Mentions of me"
        ASSIGNMENT = "assignment", "Cases assigned to me"
        CHANGES_REQUESTED = "changes_requested", "Changes requested on my cases"
        APPROVED = "approved", "Approvals of my cases"
        SUGGESTION = "suggestion", "Suggested changes to my cases"

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    case = models.ForeignKey(
        Case, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    text = models.CharField(max_length=300)
    # The page it is about, as a path (the editor at the turn, or My queue).
    link = models.CharField(max_length=1000)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["recipient", "read_at"], name="notification_unread"),
        ]

    def __str__(self) -> str:
        return f"to {self.recipient}: {self.text}"


def every_kind() -> list[str]:
    """The default of NotificationPreferences.email_kinds: every kind."""
    return list(Notification.Kind.values)


class NotificationPreferences(models.Model):
    """Which kinds of notification a person also gets by email (all, unless they choose)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    email_kinds = OrderedJSONField(default=every_kind)

    def __str__(self) -> str:
        return f"notification preferences of {self.user}"

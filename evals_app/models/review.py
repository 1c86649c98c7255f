"""Team review: who may do what in a workspace, the review of each case, comments and history."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .case import Case, ReviewStatus
from .ordered_json import OrderedJSONField
from .workspace import Workspace


class Membership(models.Model):
    """A user's role in one workspace."""

    class Role(models.TextChoices):
        OWNER = "owner", "Owner"
        EDITOR = "editor", "Editor"
        REVIEWER = "reviewer", "Reviewer"
        VIEWER = "viewer", "Viewer"

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["workspace", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["workspace", "user"], name="unique_membership")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.workspace}"


class ReviewEvent(models.Model):
    """One move of a case's review status: who, when, from what to what."""

    class Action(models.TextChoices):
        SUBMITTED = "submitted", "submitted for review"
        APPROVED = "approved", "approved"
        CHANGES_REQUESTED = "changes_requested", "requested changes"
        APPROVAL_DISMISSED = "approval_dismissed", "dismissed the approval by editing"
        RULES_CHANGED = "rules_changed", "moved it: the required approvals changed"

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="review_events")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    action = models.CharField(max_length=20, choices=Action.choices)
    from_status = models.CharField(max_length=20, choices=ReviewStatus.choices)
    to_status = models.CharField(max_length=20, choices=ReviewStatus.choices)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.actor} {self.get_action_display()} {self.case}"


class CommentThread(models.Model):
    """A discussion about a case, or about one of its turns."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="threads")
    # The turn the thread is about, as it was numbered when the thread started (None: the case).
    section = models.CharField(max_length=8, blank=True)
    turn = models.PositiveIntegerField(null=True, blank=True)
    # The turn's text then, so the thread still makes sense after turns move or change.
    excerpt = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"thread on {self.case} ({self.anchor_label})"

    @property
    def is_resolved(self) -> bool:
        """Whether someone marked the thread resolved."""
        return self.resolved_at is not None

    @property
    def anchor(self) -> str:
        """`input-2` for a thread on input turn 3; empty for a thread on the whole case."""
        return f"{self.section}-{self.turn}" if self.turn is not None else ""

    @property
    def anchor_label(self) -> str:
        """The anchor in words."""
        if self.turn is None:
            return "the case"
        kind = "expected message" if self.section == "expected" else "turn"
        return f"{kind} {self.turn + 1}"


class Comment(models.Model):
    """One message of a thread: plain text, line breaks kept."""

    thread = models.ForeignKey(CommentThread, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.author}: {self.text[:40]}"


class Revision(models.Model):
    """A saved state of a case: the full case mapping, who saved it and when."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    snapshot = OrderedJSONField(help_text="The case as its YAML mapping")
    summary = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["case", "number"]
        constraints = [
            models.UniqueConstraint(fields=["case", "number"], name="unique_revision_number")
        ]

    def __str__(self) -> str:
        return f"{self.case} r{self.number}"

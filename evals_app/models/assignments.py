"""Review assignments: who is to review which case, and when each reviewer last looked at their
queue (docs/user-guide.md, "Assignments and My queue")."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .case import Case


class ReviewAssignment(models.Model):
    """A case an owner gave a reviewer to review."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="assignments")
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="review_assignments"
    )
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["case", "reviewer__username"]
        constraints = [
            models.UniqueConstraint(fields=["case", "reviewer"], name="unique_assignment")
        ]

    def __str__(self) -> str:
        return f"{self.case} → {self.reviewer}"


class QueueVisit(models.Model):
    """When a reviewer last opened My queue: what changed after that is new to them."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_visit"
    )
    seen_at = models.DateTimeField()
    # The look before: the later pages of the queue opened at `seen_at` measure from it.
    previous_seen_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user} looked at {self.seen_at:%Y-%m-%d %H:%M}"

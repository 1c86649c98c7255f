"""Eval cases and their conversations: ordered messages made of ordered content blocks."""

from __future__ import annotations

from django.db import models

from ..formatting.schema import ROLES
from .ordered_json import OrderedJSONField
from .workspace import Suite


class ReviewStatus(models.TextChoices):
    """Where a case is in its review."""

    DRAFT = "draft", "Draft"
    IN_REVIEW = "in_review", "In review"
    CHANGES_REQUESTED = "changes_requested", "Changes requested"
    APPROVED = "approved", "Approved"


class Case(models.Model):
    """One eval case of a suite, at an explicit position."""

    suite = models.ForeignKey(Suite, on_delete=models.CASCADE, related_name="cases")
    position = models.PositiveIntegerField()
    case_id = models.CharField("id", max_length=200)
    conversation_id = models.CharField(max_length=200, null=True, blank=True)
    outcome = models.TextField()
    execution = OrderedJSONField(null=True, blank=True)
    extra = OrderedJSONField(default=dict, help_text="Case keys this app does not model")
    key_order = OrderedJSONField(default=list, help_text="Case keys in their original order")
    # Bumped on every save, so a save based on an older version is detected, not applied.
    version = models.PositiveIntegerField(default=1)
    status = models.CharField(
        max_length=20, choices=ReviewStatus.choices, default=ReviewStatus.DRAFT, db_index=True
    )
    updated_at = models.DateTimeField(auto_now=True)
    # How the case formats (lm mode), as the suite page lists it: stored, because formatting a
    # thousand cases on every view of the page would take seconds. Whatever changes the case or
    # its workspace's files or guideline patterns clears `summary_current`, and the suite page
    # recomputes such summaries before listing them (services/case_summaries.py).
    summary_current = models.BooleanField(default=False)
    input_turns = models.PositiveIntegerField(default=0)
    role_markers = models.BooleanField(null=True, default=None)
    marker_reason = models.TextField(blank=True, default="")
    format_warnings = OrderedJSONField(default=list, help_text="Formatting warnings (lm mode)")
    format_problem = models.TextField(blank=True, default="", help_text="Why it cannot format")

    class Meta:
        ordering = ["suite", "position"]
        constraints = [
            models.UniqueConstraint(fields=["suite", "position"], name="unique_case_position"),
            models.UniqueConstraint(fields=["suite", "case_id"], name="unique_case_id"),
        ]

    def __str__(self) -> str:
        return self.case_id


class Message(models.Model):
    """A turn of a case: an input message or an expected message."""

    class Section(models.TextChoices):
        INPUT = "input", "Input"
        EXPECTED = "expected", "Expected"

    class ContentForm(models.TextChoices):
        STRING = "string", "A string"
        LIST = "list", "A list of blocks"

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="messages")
    section = models.CharField(max_length=8, choices=Section.choices)
    position = models.PositiveIntegerField()
    role = models.CharField(max_length=16, choices=[(role, role.title()) for role in ROLES])
    content_form = models.CharField(
        max_length=6, choices=ContentForm.choices, default=ContentForm.STRING
    )
    extra = OrderedJSONField(default=dict)
    key_order = OrderedJSONField(default=list)

    class Meta:
        ordering = ["case", "section", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["case", "section", "position"], name="unique_message_position"
            )
        ]

    def __str__(self) -> str:
        return f"{self.section} {self.position}: {self.role}"


class ContentBlock(models.Model):
    """One block of a message's content: text, a file reference, or a type kept as-is."""

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="blocks")
    position = models.PositiveIntegerField()
    type = models.CharField(max_length=100)
    value = models.TextField(blank=True)
    # A bare string in a content list is a text block; remembered so export writes it back bare.
    bare = models.BooleanField(default=False)
    extra = OrderedJSONField(default=dict)
    key_order = OrderedJSONField(default=list)

    class Meta:
        ordering = ["message", "position"]
        constraints = [
            models.UniqueConstraint(fields=["message", "position"], name="unique_block_position")
        ]

    def __str__(self) -> str:
        return f"{self.type}: {self.value[:40]}"

"""Suggested edits: a reviewer's exact change to a case, which its editors apply or dismiss
(docs/user-guide.md, "Suggested edits")."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .case import Case
from .ordered_json import OrderedJSONField
from .review import Comment, Revision


class Suggestion(models.Model):
    """A proposed new state of a case, with the state it was made from.

    `base` is kept whole so that a suggestion overtaken by later edits can still show what it
    was made against (base, suggestion, current)."""

    class State(models.TextChoices):
        OPEN = "open", "open"
        APPLIED = "applied", "applied"
        DISMISSED = "dismissed", "dismissed"

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="suggestions")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    base = OrderedJSONField(help_text="The case as the suggester saw it, as its YAML mapping")
    base_version = models.PositiveIntegerField()
    document = OrderedJSONField(help_text="The case as suggested, as its YAML mapping")
    note = models.TextField(blank=True)
    # The comment it answers, when made from that comment's "Suggest a change".
    answers = models.ForeignKey(
        Comment, on_delete=models.SET_NULL, null=True, blank=True, related_name="suggestions"
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    # Why it was dismissed, for the suggester.
    reply = models.TextField(blank=True)
    # The revision that applied it: its author applied it, the suggestion's author wrote it.
    revision = models.OneToOneField(
        Revision, on_delete=models.SET_NULL, null=True, blank=True, related_name="suggestion"
    )

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["case", "state"], name="suggestion_case_state")]

    def __str__(self) -> str:
        return f"suggestion by {self.author} on {self.case} ({self.state})"

    @property
    def is_open(self) -> bool:
        """Whether it waits for an editor to apply or dismiss it."""
        return self.state == self.State.OPEN

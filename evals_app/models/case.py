"""Eval cases and their conversations: ordered messages made of ordered content blocks."""

from __future__ import annotations

from django.db import models

from .ordered_json import OrderedJSONField
from .workspace import Suite


class ReviewStatus(models.TextChoices):
    """Where a case is in its review."""

    DRAFT = "draft", "Draft"
    IN_REVIEW = "in_review", "In review"
    CHANGES_REQUESTED = "changes_requested", "Changes requested"
    APPROVED = "approved", "Approved"


class Case(models.Model):
    """One eval case of a suite, at an explicit position: its YAML mapping, as written.

    `document` is the case exactly as its file holds it (every key, in order, in its period's
    spelling); `case_id` repeats its id for lookups and the uniqueness constraint. The parts the
    app edits and formats are read from the document by `eval_files.case_parts`.
    """

    suite = models.ForeignKey(Suite, on_delete=models.CASCADE, related_name="cases")
    position = models.PositiveIntegerField()
    case_id = models.CharField("id", max_length=200)
    document = OrderedJSONField(default=dict, help_text="The case as its YAML mapping")
    # Bumped on every save, so a save based on an older version is detected, not applied.
    version = models.PositiveIntegerField(default=1)
    status = models.CharField(
        max_length=20, choices=ReviewStatus.choices, default=ReviewStatus.DRAFT, db_index=True
    )
    updated_at = models.DateTimeField(auto_now=True)
    # How the case formats (lm mode), as the suite page lists it: stored, because formatting a
    # thousand cases on every view of the page would take seconds. A save of the case stores
    # its new summary; a change of the workspace's files clears `summary_current`, one of the
    # whole suite bumps the suite's `summary_generation`, and the worker recomputes what is out
    # of date (services/cases/summaries.py). A GET never does.
    summary_current = models.BooleanField(default=False)
    summary_generation = models.PositiveIntegerField(default=0)
    input_turns = models.PositiveIntegerField(default=0)
    role_markers = models.BooleanField(null=True, default=None)
    marker_reason = models.TextField(blank=True, default="")
    format_warnings = OrderedJSONField(default=list, help_text="Formatting warnings (lm mode)")
    format_problem = models.TextField(blank=True, default="", help_text="Why it cannot format")
    # The findings of the one-case lint rules, stored with the summary for the same reason
    # (docs/user-guide.md, "Lint rules"): the suite page filters on them.
    lint_findings = OrderedJSONField(default=list, help_text="Lint findings (one-case rules)")
    # The three-way rule of a sync (docs/sync.md): `base_document` is the case as of the last
    # import, sync or publish (None for a case made in the app); `theirs_document` is the
    # repository's version of a case in conflict (an empty mapping: the repository removed it).
    base_document = OrderedJSONField(
        null=True, blank=True, default=None, help_text="The case as last imported or published"
    )
    theirs_document = OrderedJSONField(
        null=True, blank=True, default=None, help_text="The repository's version, in a conflict"
    )

    @property
    def in_conflict(self) -> bool:
        """Whether a sync left the repository's version of this case beside the app's."""
        return self.theirs_document is not None

    @property
    def removed_in_repository(self) -> bool:
        """Whether the conflict is a removal in the repository of a case changed in the app."""
        return self.theirs_document == {}

    class Meta:
        ordering = ["suite", "position"]
        constraints = [
            models.UniqueConstraint(fields=["suite", "position"], name="unique_case_position"),
            models.UniqueConstraint(fields=["suite", "case_id"], name="unique_case_id"),
        ]
        # The suite page's orders and filters read a page of a suite of any size from an
        # index, not the whole suite (docs/performance.md). The search index is not here:
        # it differs by database (services/cases/search_index.py).
        indexes = [
            models.Index(fields=["suite", "updated_at", "position"], name="case_changed_oldest"),
            models.Index(fields=["suite", "-updated_at", "position"], name="case_changed_newest"),
            models.Index(
                fields=["suite", "position"],
                condition=models.Q(role_markers__isnull=False) & ~models.Q(format_warnings=[]),
                name="case_with_warnings",
            ),
            models.Index(
                fields=["suite", "position"],
                condition=models.Q(role_markers__isnull=False) & ~models.Q(lint_findings=[]),
                name="case_with_lint_findings",
            ),
            # How the suite page and the worker find the summaries that are out of date, at once.
            models.Index(fields=["suite", "summary_current"], name="case_summary_current"),
            models.Index(fields=["suite", "summary_generation"], name="case_summary_generation"),
            # Every suite page lists the suite's open conflicts with the repository.
            models.Index(
                fields=["suite", "position"],
                condition=models.Q(theirs_document__isnull=False),
                name="case_in_conflict",
            ),
        ]

    def __str__(self) -> str:
        return self.case_id

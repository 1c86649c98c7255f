"""Review forms: a workspace's review rules and criteria, and each reviewer's scored review of a
case (docs/user-guide.md, "Review forms and scores")."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .case import Case
from .ordered_json import OrderedJSONField
from .review import ReviewEvent
from .workspace import Workspace


class ReviewRules(models.Model):
    """How a workspace reviews: approvals needed, and whether reviewers review blind.

    A workspace without a row has the defaults (one approval, not blind), as before review
    forms existed.
    """

    workspace = models.OneToOneField(
        Workspace, on_delete=models.CASCADE, related_name="review_rules"
    )
    # Approvals from distinct reviewers, none of them the case's last editor.
    required_approvals = models.PositiveSmallIntegerField(default=1)
    # A reviewer sees no one else's scores or decisions on a case before giving their own.
    blind = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"review rules of {self.workspace}"


class ReviewCriterion(models.Model):
    """One question of a workspace's review form, at an explicit position."""

    class Kind(models.TextChoices):
        PASS_FAIL = "pass_fail", "Pass or fail"
        SCALE = "scale", "Scale of 1 to 5"
        LABEL = "label", "One of some labels"
        TEXT = "text", "Free text"

    workspace = models.ForeignKey(
        Workspace, on_delete=models.CASCADE, related_name="review_criteria"
    )
    position = models.PositiveIntegerField()
    name = models.CharField(max_length=100)
    help_text = models.CharField(max_length=500, blank=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # The labels a LABEL criterion offers, in order (empty for the other kinds).
    labels = OrderedJSONField(default=list)

    class Meta:
        ordering = ["workspace", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["workspace", "position"], name="unique_criterion_position"
            ),
            models.UniqueConstraint(fields=["workspace", "name"], name="unique_criterion_name"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def choices(self) -> list[str]:
        """The answers the criterion allows, in order (none listed for free text)."""
        if self.kind == self.Kind.PASS_FAIL:
            return ["pass", "fail"]
        if self.kind == self.Kind.SCALE:
            return ["1", "2", "3", "4", "5"]
        if self.kind == self.Kind.LABEL:
            return [str(label) for label in self.labels]
        return []

    @property
    def categorical(self) -> bool:
        """Whether answers fall in categories (counted, compared for agreement)."""
        return self.kind != self.Kind.TEXT


class CaseReview(models.Model):
    """One reviewer's decision on a case, with their scores: what an approval or a request for
    changes said about the case as it stood (revision `revision`)."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="reviews")
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    event = models.OneToOneField(
        ReviewEvent, on_delete=models.CASCADE, related_name="review", null=True, blank=True
    )
    decision = models.CharField(
        max_length=20,
        choices=[
            (ReviewEvent.Action.APPROVED, "approved"),
            (ReviewEvent.Action.CHANGES_REQUESTED, "requested changes"),
        ],
    )
    # The number of the case's latest revision then (0: none yet).
    revision = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["case", "reviewer"], name="case_review_reviewer")]

    def __str__(self) -> str:
        return f"{self.reviewer} {self.get_decision_display()} {self.case}"


class ReviewScore(models.Model):
    """A review's answer to one criterion: `pass`/`fail`, `1`–`5`, a label, or free text."""

    review = models.ForeignKey(CaseReview, on_delete=models.CASCADE, related_name="scores")
    criterion = models.ForeignKey(ReviewCriterion, on_delete=models.CASCADE, related_name="scores")
    value = models.TextField()

    class Meta:
        ordering = ["review", "criterion__position"]
        constraints = [
            models.UniqueConstraint(fields=["review", "criterion"], name="unique_review_score")
        ]

    def __str__(self) -> str:
        return f"{self.criterion}: {self.value}"

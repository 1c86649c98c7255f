"""Runs of cases with AgentV itself, and what AgentV said of each case (docs/runs.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse

from .case import Case
from .job import Job
from .ordered_json import OrderedJSONField
from .workspace import Suite, Workspace


class Run(models.Model):
    """One `agentv eval` of some cases of a suite with one target, done by a job in the worker.

    The job carries its state, progress, cancellation and error; the run keeps what was run
    and, once AgentV finished, one RunResult per case, all stored together.
    """

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="runs")
    suite = models.ForeignKey(Suite, on_delete=models.CASCADE, related_name="runs")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    job = models.OneToOneField(Job, on_delete=models.CASCADE, related_name="run")
    target = models.CharField(max_length=200)
    # The cases as they were run (the editor's draft, saved or not): [{"case": pk, "document"}].
    cases = OrderedJSONField(default=list)
    agentv_version = models.CharField(max_length=50, blank=True)
    # How long AgentV itself ran: the rest of a run's time is the app's (docs/performance.md).
    agentv_seconds = models.FloatField(null=True, blank=True)
    # How AgentV ended and what it warned of (its warning and error lines), shown with the run.
    agentv_exit_code = models.IntegerField(null=True, blank=True)
    agentv_warnings = models.JSONField(default=list, blank=True)
    # "Run as AgentV X reads it: …" when AgentV ran a spelling made from the suite's content.
    spelling_note = models.TextField(blank=True)
    # When AgentV started: the runs of a workspace that count against its concurrency limit.
    started_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Run {self.pk} of {self.suite} with {self.target}"

    def get_absolute_url(self) -> str:
        return reverse("run_detail", args=[self.workspace.slug, self.pk])


class RunResult(models.Model):
    """What AgentV reported for one case of a run: the answers, every grader, the costs."""

    class Verdict(models.TextChoices):
        PASS = "pass", "Pass"
        FAIL = "fail", "Fail"
        ERROR = "error", "Error"
        SKIPPED = "skipped", "Skipped by AgentV"

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="results")
    case = models.ForeignKey(
        Case, on_delete=models.SET_NULL, null=True, blank=True, related_name="run_results"
    )
    test_id = models.CharField("id", max_length=200)
    # The saved revision the run's case was, when it was one (None: a draft, or a case as
    # imported, which has no revision yet).
    revision_number = models.PositiveIntegerField(null=True, blank=True)
    # Whether the case ran as the editor's unsaved draft (not as it is stored).
    draft = models.BooleanField(default=False)
    target = models.CharField(max_length=200)
    verdict = models.CharField(max_length=10, choices=Verdict.choices)
    score = models.FloatField(null=True, blank=True)
    answers = OrderedJSONField(default=list, help_text="The model's answer of each turn")
    graders = OrderedJSONField(default=list, help_text="Each grader's score, verdict, assertions")
    input_tokens = models.PositiveIntegerField(null=True, blank=True)
    output_tokens = models.PositiveIntegerField(null=True, blank=True)
    cost_usd = models.FloatField(null=True, blank=True)
    duration_ms = models.PositiveIntegerField(null=True, blank=True)
    error = models.TextField(blank=True, help_text="AgentV's error, verbatim")

    class Meta:
        ordering = ["run", "pk"]
        indexes = [models.Index(fields=["case", "revision_number"])]

    def __str__(self) -> str:
        return f"{self.test_id}: {self.verdict}"

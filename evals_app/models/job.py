"""A person's long operation (import, export, sync, publish, upgrade, a run) run by the worker
(docs/jobs.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse

from .workspace import Workspace


class Job(models.Model):
    """One long operation: what it is, for whom, how far it got, and how it ended.

    The worker's task updates the row as it goes; the job's page reads it. `arguments` are
    the operation's own (a branch, a suite); `result` holds what the page shows when done:
    a sentence and links.
    """

    class Kind(models.TextChoices):
        IMPORT = "import", "Import a .zip"
        EXPORT = "export", "Export"
        CHECK = "check", "Check for changes"
        SYNC = "sync", "Apply the repository's changes"
        PUBLISH = "publish", "Publish"
        UPGRADE = "upgrade", "Upgrade a suite"
        RUN = "run", "Run with AgentV"
        LINK = "link", "Link a repository"
        IMPORT_TESTS = "tests", "Import tests from another tool"

    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"
        CANCELLED = "cancelled", "Cancelled"

    kind = models.CharField(max_length=10, choices=Kind.choices)
    workspace = models.ForeignKey(
        Workspace, on_delete=models.CASCADE, null=True, blank=True, related_name="jobs"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="jobs"
    )
    arguments = models.JSONField(default=dict, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    # Progress, "done of total phrase": 3 of 10 files read (total 0: not known yet).
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    phrase = models.CharField(max_length=200, blank=True)
    cancel_requested = models.BooleanField(default=False)
    result = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    task_id = models.CharField(max_length=64, blank=True)
    # Which process runs it, and when it last said so: how a killed worker is noticed.
    worker = models.CharField(max_length=300, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["workspace", "state"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.get_state_display()})"

    def get_absolute_url(self) -> str:
        return reverse("job_detail", args=[self.pk])

    @property
    def finished(self) -> bool:
        return self.state in (self.State.DONE, self.State.FAILED, self.State.CANCELLED)

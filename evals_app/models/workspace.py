"""Workspaces (an AgentV repository root), their text files and their suites (eval files)."""

from __future__ import annotations

from django.db import models
from django.urls import reverse

from ..formatting.schema import DEFAULT_GUIDELINE_PATTERNS
from .ordered_json import OrderedJSONField


def default_guideline_patterns() -> list[str]:
    """The patterns used when a workspace has no `.agentv/config.yaml`."""
    return list(DEFAULT_GUIDELINE_PATTERNS)


class Workspace(models.Model):
    """An AgentV repository root: eval suites, the files they reference, guideline patterns."""

    name = models.CharField(max_length=200, unique=True)
    slug = models.SlugField(max_length=200, unique=True)
    guideline_patterns = OrderedJSONField(default=default_guideline_patterns)
    # The whole `.agentv/config.yaml` mapping as imported, so keys we do not use survive export.
    config = OrderedJSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("workspace_detail", args=[self.slug])

    def file_texts(self) -> dict[str, str]:
        """Every stored file's text by workspace-relative path (one query)."""
        return dict(self.files.values_list("path", "text"))


class WorkspaceFile(models.Model):
    """A text file of a workspace: a guideline, an attachment or a judge prompt."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="files")
    path = models.CharField(max_length=1000, help_text="POSIX path relative to the workspace root")
    text = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["path"]
        constraints = [
            models.UniqueConstraint(fields=["workspace", "path"], name="unique_file_path")
        ]

    def __str__(self) -> str:
        return self.path


class Suite(models.Model):
    """One eval YAML file of a workspace: its path and top-level fields; its cases are rows."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="suites")
    path = models.CharField(max_length=1000, help_text="POSIX path relative to the workspace root")
    description = models.TextField(null=True, blank=True)
    dataset = models.CharField(max_length=200, null=True, blank=True)
    target = models.CharField(max_length=200, null=True, blank=True)
    execution = OrderedJSONField(null=True, blank=True)
    extra = OrderedJSONField(default=dict, help_text="Top-level keys this app does not model")
    key_order = OrderedJSONField(default=list, help_text="Top-level keys in their original order")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["path"]
        constraints = [
            models.UniqueConstraint(fields=["workspace", "path"], name="unique_suite_path")
        ]

    def __str__(self) -> str:
        return self.path

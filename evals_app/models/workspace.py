"""Workspaces (an AgentV repository root), their text files and their suites (eval files)."""

from __future__ import annotations

from django.db import models
from django.urls import reverse

from ..eval_files.dialects import DEFAULT_GUIDELINE_PATTERNS, PROFILE_2025, PROFILE_LABELS
from ..eval_files.reading import FILE_FORMATS, READ_ONLY_FORMATS
from .ordered_json import OrderedJSONField


def default_guideline_patterns() -> list[str]:
    """The default of a column removed in migration 0004; the earlier migrations name it."""
    return list(DEFAULT_GUIDELINE_PATTERNS)


class VisibleWorkspaces(models.Manager["Workspace"]):
    """Workspaces people can see: every one but those still being imported (docs/jobs.md,
    "Imports"). The default manager, so that the pages, the API, the admin and the commands
    all leave an import out until it commits."""

    def get_queryset(self) -> models.QuerySet[Workspace]:
        return super().get_queryset().filter(importing_process="")


class Workspace(models.Model):
    """An AgentV repository root: eval suites and the files they reference, `.agentv/config.yaml`
    files included (the nearest one decides each suite's guideline patterns)."""

    name = models.CharField(max_length=200, unique=True)
    slug = models.SlugField(max_length=200, unique=True)
    # Where the repository is checked out on the machine that runs AgentV: agent mode's file
    # paths are absolute there (docs/formatting.md, "Agent mode's absolute paths").
    checkout_folder = models.CharField(
        max_length=1000,
        blank=True,
        default="",
        help_text="The folder AgentV runs from; empty: paths show as / + the workspace path",
    )
    # How the editor counts tokens, and the context window it counts them against
    # (docs/user-guide.md, "Token counts").
    token_encoding = models.CharField(
        max_length=20,
        choices=[("o200k_base", "o200k_base"), ("cl100k_base", "cl100k_base")],
        default="o200k_base",
    )
    context_window = models.PositiveIntegerField(default=128_000)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # A linked git repository (docs/sync.md): its folder, the workspace's folder inside it
    # ("" for the root), the branch a sync reads, and the commit of the last import, sync or
    # publish (the base).
    repository_path = models.CharField(max_length=1000, blank=True, default="")
    repository_folder = models.CharField(max_length=1000, blank=True, default="")
    repository_branch = models.CharField(max_length=250, blank=True, default="")
    base_commit = models.CharField(max_length=64, blank=True, default="")
    # A publish whose database side is committed and whose branch is not yet moved
    # (services/pending_publish.py): the commit, the branch, its expected old value and the
    # bases before the publish, so that the next publish or sync can finish or undo it.
    pending_publish = OrderedJSONField(null=True, blank=True, default=None)
    # The process (host:pid) writing a new workspace's import in batches; empty once the
    # import committed. Until then the workspace is hidden (services/imports/staging.py).
    importing_process = models.CharField(max_length=300, blank=True, default="", editable=False)

    objects = VisibleWorkspaces()
    # Workspaces being imported too: for the import itself, and for names and slugs, which
    # an import holds from its start.
    all_objects = models.Manager["Workspace"]()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("workspace_detail", args=[self.slug])

    @property
    def linked(self) -> bool:
        """Whether the workspace was imported from a git repository (sync and publish work)."""
        return bool(self.repository_path and self.base_commit)

    def file_texts(self) -> dict[str, str]:
        """Every stored file's text by workspace-relative path (one query)."""
        return dict(self.files.values_list("path", "text"))


class WorkspaceFile(models.Model):
    """A text file of a workspace: a guideline, an attachment, a judge prompt or a config."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="files")
    path = models.CharField(max_length=1000, help_text="POSIX path relative to the workspace root")
    text = models.TextField(blank=True)
    # The text as of the last import, sync or publish; None for a file made in the app.
    base_text = models.TextField(null=True, blank=True, default=None)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["path"]
        constraints = [
            models.UniqueConstraint(fields=["workspace", "path"], name="unique_file_path")
        ]

    def __str__(self) -> str:
        return self.path


class Suite(models.Model):
    """One eval file of a workspace: its path, its top-level mapping and its format; its cases
    are rows.

    `document` is the file's top-level mapping with each case of its list of cases standing as
    null (file references such as `- file://more.yaml` keep their place as strings), so export
    writes the keys in their order around the cases. A file of cases that another eval file
    refers to (`tests: file://cases.jsonl`) is a suite too, with `referenced_by` set.
    """

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="suites")
    path = models.CharField(max_length=1000, help_text="POSIX path relative to the workspace root")
    document = OrderedJSONField(default=dict, help_text="Top-level keys; cases stand as null")
    cases_key = models.CharField(
        max_length=20, blank=True, default="evalcases", help_text="The key of the list of cases"
    )
    file_format = models.CharField(
        max_length=10, choices=[(name, name) for name in FILE_FORMATS], default="yaml"
    )
    profile = models.CharField(
        max_length=20, choices=list(PROFILE_LABELS.items()), default=PROFILE_2025
    )
    referenced_by = models.CharField(max_length=1000, blank=True, default="")
    # The top-level mapping as of the last import, sync or publish; None for a suite made here.
    base_document = OrderedJSONField(null=True, blank=True, default=None)
    # faithful_writing.documents_digest of what `source_text` reads as ("": not known), so
    # that an untouched suite is written as its text without reading the text again.
    source_digest = models.CharField(max_length=64, blank=True, default="")
    # What the last import, sync or publish found (services/repository/settled.py), so that a
    # sync check and a publish know a suite unchanged without reading its cases: a digest of
    # its rows' identities, order and times then ("": not known to be as of its base text),
    # git's blob id of `base_source_text`, and the files its cases read then, each with its
    # blob id (None: not there), by profile (None: not known).
    settled_stamp = models.CharField(max_length=64, blank=True, default="")
    base_blob = models.CharField(max_length=64, blank=True, default="")
    base_reads = OrderedJSONField(null=True, blank=True, default=None)
    # Bumped by a change that may alter how every case of the suite formats (guideline
    # patterns, profile, path, top-level fields): a case's stored summary is current only at
    # the suite's generation, and the worker brings them up to it (services/cases/summaries.py).
    summary_generation = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)
    # The file texts are the table's last columns: SQLite keeps a row's columns in the order
    # they were added, and reads through a long text to reach any column after it (reading
    # 2,000 suites' stamps walked 40 MB of text). A column added later goes after them, so
    # its migration moves them last again, as 0026_suite_texts_last does
    # (tests/cases/test_list_indexes.py holds this).
    # The file's text as read (UTF-8, BOM and line endings kept), that writing starts from so
    # that what did not change keeps its bytes (docs/formats.md, "Round trip"); None for a
    # suite made in the app, written by the app's own writer.
    source_text = models.TextField(null=True, blank=True, default=None)
    # The text as of the last import, sync or publish when the suite's bases (header and
    # cases) are what it reads as; None otherwise (made here, or a sync left a conflict).
    base_source_text = models.TextField(null=True, blank=True, default=None)

    class Meta:
        ordering = ["path"]
        constraints = [
            models.UniqueConstraint(fields=["workspace", "path"], name="unique_suite_path")
        ]

    # The columns that hold whole files: a page that lists suites leaves them unread.
    TEXTS = ("source_text", "base_source_text")

    def __str__(self) -> str:
        return self.path

    @property
    def description(self) -> str | None:
        """The file's `description`, when it is text."""
        value = self.document.get("description")
        return value if isinstance(value, str) else None

    @property
    def read_only(self) -> bool:
        """The cases of a CSV file, of a folder of cases and the tests of `scenarios:` are
        formatted and previewed, never edited (docs/formats.md)."""
        return self.file_format in READ_ONLY_FORMATS

"""The Django admin: every stored object, for superusers.

Saving an object unchanged changes nothing. JSON columns are edited as JSON (OrderedJSONField's
form field); those that only record how a file was written (key orders), what the app computed
(formatting warnings) or history (revision snapshots) are shown read-only. Text is kept as typed
(Django's forms strip it), with the line ends of the files it was imported from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin
from django.db import models
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString

from .models import (
    Case,
    Comment,
    CommentThread,
    Membership,
    ReviewEvent,
    Revision,
    Suite,
    Workspace,
    WorkspaceFile,
)
from .models.ordered_json import OrderedJSONField, readable_json
from .services.cases.summaries import mark_file_stale


class TextAsTyped(forms.CharField):
    """A text box whose value is kept as typed: not stripped, line ends LF.

    Browsers send a text box's line ends as CRLF (HTML spec, "textarea wrapping"); the files,
    outcomes and messages of a workspace keep the LF line ends they were imported with.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**{**kwargs, "strip": False})

    def to_python(self, value: Any) -> Any:
        text = super().to_python(value)
        return text.replace("\r\n", "\n") if isinstance(text, str) else text


class KeepsText(admin.options.BaseModelAdmin):
    """Admin pages and inlines whose text columns save back exactly what they show."""

    def formfield_for_dbfield(
        self, db_field: models.Field, request: HttpRequest, **kwargs: Any
    ) -> forms.Field | None:
        if isinstance(db_field, models.TextField) and not isinstance(db_field, OrderedJSONField):
            kwargs.setdefault("form_class", TextAsTyped)
            if db_field.null:
                kwargs.setdefault("empty_value", None)  # an empty box stays "no value"
        return super().formfield_for_dbfield(db_field, request, **kwargs)


def json_display(name: str) -> Callable[[Any, Model], SafeString]:
    """A ModelAdmin method for `readonly_fields`: the JSON field `name`, indented."""

    @admin.display(description=name.replace("_", " "))
    def display(model_admin: Any, obj: Model) -> SafeString:
        return format_html("<pre>{}</pre>", readable_json(getattr(obj, name)))

    return display


class MembershipInline(KeepsText, admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["user"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Membership]:
        # Each row is labelled with Membership.__str__, which names the user and the workspace.
        return super().get_queryset(request).select_related("user", "workspace")


@admin.register(Workspace)
class WorkspaceAdmin(KeepsText, admin.ModelAdmin):
    list_display = ["name", "slug", "updated_at"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]
    readonly_fields = ["pending_publish"]  # a publish's bookkeeping (docs/sync.md)


@admin.register(WorkspaceFile)
class WorkspaceFileAdmin(KeepsText, admin.ModelAdmin):
    list_display = ["path", "workspace", "updated_at"]
    list_filter = ["workspace"]
    search_fields = ["path"]
    readonly_fields = ["base_text"]  # the sync's bookkeeping (docs/sync.md)

    def save_model(self, request: HttpRequest, obj: WorkspaceFile, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        # The suite pages' summaries follow the file (a config's patterns, a file's text).
        mark_file_stale(obj.workspace, obj.path)
        if change and "path" in form.changed_data:
            mark_file_stale(obj.workspace, form.initial["path"])


@admin.register(Suite)
class SuiteAdmin(KeepsText, admin.ModelAdmin):
    list_display = ["path", "workspace", "updated_at"]
    list_filter = ["workspace"]
    search_fields = ["path"]
    # The sync's bookkeeping (docs/sync.md) is shown, not edited.
    exclude = ["base_document", "base_reads"]
    readonly_fields = ["base_document_json", "base_reads_json"]
    base_document_json = json_display("base_document")
    base_reads_json = json_display("base_reads")


@admin.register(Case)
class CaseAdmin(KeepsText, admin.ModelAdmin):
    list_display = ["case_id", "suite", "position", "status", "version", "updated_at"]
    list_filter = ["status", "suite__workspace"]
    search_fields = ["case_id"]
    # Findings are the worker's (summaries.py), as the formatting warnings: shown, not edited.
    exclude = ["format_warnings", "lint_findings", "base_document", "theirs_document"]
    readonly_fields = [
        "format_warnings_json",
        "lint_findings_json",
        "base_document_json",
        "theirs_document_json",
    ]
    format_warnings_json = json_display("format_warnings")
    lint_findings_json = json_display("lint_findings")
    base_document_json = json_display("base_document")
    theirs_document_json = json_display("theirs_document")


@admin.register(Membership)
class MembershipAdmin(KeepsText, admin.ModelAdmin):
    list_display = ["user", "workspace", "role", "created_at"]
    list_filter = ["role", "workspace"]


@admin.register(ReviewEvent)
class ReviewEventAdmin(KeepsText, admin.ModelAdmin):
    list_display = ["case", "actor", "action", "from_status", "to_status", "created_at"]
    # Named: the admin's own select_related() skips nullable keys (actor, author,
    # created_by here and below), which then cost a query per row.
    list_select_related = ["case", "actor"]
    list_filter = ["action"]


class CommentInline(KeepsText, admin.TabularInline):
    model = Comment
    extra = 0
    # A search box rather than a menu of every account on each row.
    autocomplete_fields = ["author"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Comment]:
        # Each row is labelled with Comment.__str__, which names the author.
        return super().get_queryset(request).select_related("author")


@admin.register(CommentThread)
class CommentThreadAdmin(KeepsText, admin.ModelAdmin):
    list_display = ["case", "anchor_label", "created_by", "created_at", "resolved_at"]
    list_select_related = ["case", "created_by"]
    inlines = [CommentInline]


@admin.register(Revision)
class RevisionAdmin(KeepsText, admin.ModelAdmin):
    list_display = ["case", "number", "author", "created_at", "summary"]
    list_select_related = ["case", "author"]
    exclude = ["snapshot"]
    readonly_fields = ["snapshot_json"]
    snapshot_json = json_display("snapshot")

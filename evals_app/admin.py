"""The Django admin: every stored object, for superusers."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

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


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["user"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Membership]:
        # Each row is labelled with Membership.__str__, which names the user and the workspace.
        return super().get_queryset(request).select_related("user", "workspace")


@admin.register(Workspace)
class WorkspaceAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "updated_at"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(WorkspaceFile)
class WorkspaceFileAdmin(admin.ModelAdmin):
    list_display = ["path", "workspace", "updated_at"]
    list_filter = ["workspace"]
    search_fields = ["path"]


@admin.register(Suite)
class SuiteAdmin(admin.ModelAdmin):
    list_display = ["path", "workspace", "updated_at"]
    list_filter = ["workspace"]
    search_fields = ["path"]


@admin.register(Case)
class CaseAdmin(admin.ModelAdmin):
    list_display = ["case_id", "suite", "position", "status", "version", "updated_at"]
    list_filter = ["status", "suite__workspace"]
    search_fields = ["case_id"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "workspace", "role", "created_at"]
    list_filter = ["role", "workspace"]


@admin.register(ReviewEvent)
class ReviewEventAdmin(admin.ModelAdmin):
    list_display = ["case", "actor", "action", "from_status", "to_status", "created_at"]
    # Named: the admin's own select_related() skips nullable keys (actor, author,
    # created_by here and below), which then cost a query per row.
    list_select_related = ["case", "actor"]
    list_filter = ["action"]


class CommentInline(admin.TabularInline):
    model = Comment
    extra = 0
    # A search box rather than a menu of every account on each row.
    autocomplete_fields = ["author"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Comment]:
        # Each row is labelled with Comment.__str__, which names the author.
        return super().get_queryset(request).select_related("author")


@admin.register(CommentThread)
class CommentThreadAdmin(admin.ModelAdmin):
    list_display = ["case", "anchor_label", "created_by", "created_at", "resolved_at"]
    list_select_related = ["case", "created_by"]
    inlines = [CommentInline]


@admin.register(Revision)
class RevisionAdmin(admin.ModelAdmin):
    list_display = ["case", "number", "author", "created_at", "summary"]
    list_select_related = ["case", "author"]

"""URLs of the evals app. Every page requires a logged-in user (LoginRequiredMiddleware)."""

from __future__ import annotations

from django.urls import path, register_converter

from .request_numbers import DatabaseId
from .views import (
    api_tokens,
    case_bulk,
    case_editor,
    case_variants,
    exports,
    history,
    inbox,
    invitations,
    jobs,
    members,
    profile,
    queue,
    repository,
    review,
    review_forms,
    runs,
    suggestions,
    suite_settings,
    suite_upgrade,
    suites,
    tests_import,
    trash,
    workspace_files,
    workspace_search,
    workspace_settings,
    workspaces,
)

# Ids in paths are `<id:...>`: numbers too long for a database column are a 404, not a 500.
register_converter(DatabaseId, "id")

# Workspaces, their files and guideline patterns.
urlpatterns = [
    path("", workspaces.workspace_list, name="workspace_list"),
    path("workspaces/new/", workspace_settings.workspace_create, name="workspace_create"),
    path("workspaces/import/", workspace_settings.workspace_import, name="workspace_import"),
    path("w/<slug:slug>/", workspaces.workspace_detail, name="workspace_detail"),
    path(
        "w/<slug:slug>/settings/", workspace_settings.workspace_settings, name="workspace_settings"
    ),
    path("w/<slug:slug>/rename/", workspace_settings.workspace_rename, name="workspace_rename"),
    path("w/<slug:slug>/delete/", workspace_settings.workspace_delete, name="workspace_delete"),
    path("w/<slug:slug>/patterns/", workspaces.workspace_patterns, name="workspace_patterns"),
    path("w/<slug:slug>/search/", workspace_search.workspace_search, name="workspace_search"),
    path(
        "w/<slug:slug>/checkout-folder/",
        workspaces.workspace_checkout_folder,
        name="workspace_checkout_folder",
    ),
    path(
        "w/<slug:slug>/token-counts/",
        workspaces.workspace_token_counts,
        name="workspace_token_counts",
    ),
    path("w/<slug:slug>/suites/new/", workspaces.suite_create, name="suite_create"),
    path("w/<slug:slug>/import-tests/", tests_import.tests_import, name="tests_import"),
    path("w/<slug:slug>/files/new/", workspace_files.file_create, name="file_create"),
    path("w/<slug:slug>/files/upload/", workspace_files.file_upload, name="file_upload"),
    path("w/<slug:slug>/files/<id:file_pk>/", workspace_files.file_edit, name="file_edit"),
    path(
        "w/<slug:slug>/files/<id:file_pk>/delete/",
        workspace_files.file_delete,
        name="file_delete",
    ),
]

# Suites and their list of cases.
SUITE = "w/<slug:slug>/suites/<id:suite_pk>/"
urlpatterns += [
    path(SUITE, suites.suite_detail, name="suite_detail"),
    path(f"{SUITE}settings/", suite_settings.suite_settings, name="suite_settings"),
    path(f"{SUITE}profile/", suite_settings.suite_profile, name="suite_profile"),
    path(f"{SUITE}prompts/", suite_settings.suite_prompts, name="suite_prompts"),
    path(f"{SUITE}rename/", suite_settings.suite_rename, name="suite_rename"),
    path(f"{SUITE}delete/", suite_settings.suite_delete, name="suite_delete"),
    path(f"{SUITE}upgrade/", suite_upgrade.suite_upgrade, name="suite_upgrade"),
    path(f"{SUITE}export/", exports.suite_export, name="suite_export"),
    path(f"{SUITE}export/<str:format_name>/", exports.suite_export_file, name="suite_export_file"),
    path(f"{SUITE}cases/new/", suites.case_create, name="case_create"),
    path(f"{SUITE}cases/selected/", case_bulk.case_bulk, name="case_bulk"),
    path(f"{SUITE}run/", runs.suite_run, name="suite_run"),
    path(f"{SUITE}cases/<id:case_pk>/duplicate/", suites.case_duplicate, name="case_duplicate"),
    path(f"{SUITE}cases/<id:case_pk>/delete/", suites.case_delete, name="case_delete"),
    path(f"{SUITE}cases/<id:case_pk>/move/", suites.case_move, name="case_move"),
]

# The case editor.
CASE = "w/<slug:slug>/suites/<id:suite_pk>/cases/<id:case_pk>/"
urlpatterns += [
    path(CASE, case_editor.case_editor, name="case_editor"),
    path(f"{CASE}preview/", case_editor.case_preview, name="case_preview"),
    path(f"{CASE}yaml/", case_editor.case_yaml, name="case_yaml"),
    path(f"{CASE}run/", runs.case_run, name="case_run"),
    path(f"{CASE}fork/", case_variants.case_fork, name="case_fork"),
    path(f"{CASE}take-prefix/", case_variants.case_take_prefix, name="case_take_prefix"),
    path(
        "w/<slug:slug>/suites/<id:suite_pk>/cases/paste/",
        case_editor.case_paste,
        name="case_paste",
    ),
]

# Team review: members, review steps, comments, history, the queue, activity, export.
urlpatterns += [
    path("review/", review.review_queue, name="review_queue"),
    path("queue/", queue.queue, name="my_queue"),
    path("queue/next/", queue.queue_next, name="queue_next"),
    path("inbox/", inbox.inbox, name="inbox"),
    path("inbox/count/", inbox.inbox_count, name="inbox_count"),
    path("inbox/read/", inbox.inbox_read, name="inbox_read"),
    path("inbox/email/", inbox.inbox_preferences, name="inbox_preferences"),
    path("inbox/<id:notification_pk>/", inbox.notification_open, name="notification_open"),
    path("w/<slug:slug>/activity/", review.activity, name="activity"),
    path("w/<slug:slug>/deleted/", trash.deleted_list, name="deleted_list"),
    path("w/<slug:slug>/deleted/restore/", trash.deleted_restore, name="deleted_restore"),
    path("w/<slug:slug>/export.zip", exports.workspace_export, name="workspace_export"),
    path("w/<slug:slug>/members/", members.member_add, name="member_add"),
    path(
        "w/<slug:slug>/members/<id:membership_pk>/remove/",
        members.member_remove,
        name="member_remove",
    ),
    path("w/<slug:slug>/review-rules/", review_forms.review_rules, name="review_rules"),
    path("w/<slug:slug>/criteria/", review_forms.criterion_add, name="criterion_add"),
    path(
        "w/<slug:slug>/criteria/<id:criterion_pk>/",
        review_forms.criterion_change,
        name="criterion_change",
    ),
    path(f"{CASE}review/", review.case_review, name="case_review"),
    path(f"{CASE}threads/", review.thread_create, name="thread_create"),
    path(f"{CASE}threads/<id:thread_pk>/", review.thread_reply, name="thread_reply"),
    path(f"{CASE}history/", history.case_history, name="case_history"),
    path(f"{CASE}compare/", history.case_compare, name="case_compare"),
    path(f"{CASE}history/<id:number>/restore/", history.case_restore, name="case_restore"),
    path(
        f"{CASE}suggestions/<id:suggestion_pk>/",
        suggestions.case_suggestion,
        name="case_suggestion",
    ),
]

# An invitation link: the invited person creates their account (no login needed).
urlpatterns += [
    path("invitations/<str:token>/", invitations.invitation, name="invitation"),
]

# The signed-in person's profile and API tokens (the API is under /api/v1/, agentv_web/urls.py).
urlpatterns += [
    path("account/api-tokens/", api_tokens.api_tokens, name="api_tokens"),
    path("account/profile/", profile.profile, name="profile"),
    path(
        "account/api-tokens/<id:token_pk>/revoke/",
        api_tokens.api_token_revoke,
        name="api_token_revoke",
    ),
]
# The linked git repository: check, apply, publish; conflicts resolved from the editor.
urlpatterns += [
    path("w/<slug:slug>/repository/check/", repository.repository_check, name="repository_check"),
    path(
        "w/<slug:slug>/repository/changes/",
        repository.repository_changes,
        name="repository_changes",
    ),
    path("w/<slug:slug>/repository/sync/", repository.repository_sync, name="repository_sync"),
    path("w/<slug:slug>/repository/link/", repository.repository_link, name="repository_link"),
    path(
        "w/<slug:slug>/repository/link/confirm/",
        repository.repository_link_confirm,
        name="repository_link_confirm",
    ),
    path(
        "w/<slug:slug>/repository/relink/",
        repository.repository_relink,
        name="repository_relink",
    ),
    path(
        "w/<slug:slug>/repository/publish/",
        repository.repository_publish,
        name="repository_publish",
    ),
    path(f"{CASE}resolve/", repository.case_resolve, name="case_resolve"),
]

# Jobs: long work done by the worker, with progress (docs/jobs.md).
urlpatterns += [
    path("jobs/running/", jobs.running_jobs, name="running_jobs"),
    path("jobs/<id:job_pk>/", jobs.job_detail, name="job_detail"),
    path("jobs/<id:job_pk>/cancel/", jobs.job_cancel, name="job_cancel"),
    path("jobs/<id:job_pk>/export.zip", jobs.job_download, name="job_download"),
]

# Runs of cases with AgentV (docs/runs.md).
urlpatterns += [
    path("w/<slug:slug>/runs/<id:run_pk>/", runs.run_detail, name="run_detail"),
    path("w/<slug:slug>/runs/<id:run_pk>/cancel/", runs.run_cancel, name="run_cancel"),
]

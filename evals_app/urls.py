"""URLs of the evals app. Every page requires a logged-in user (LoginRequiredMiddleware)."""

from __future__ import annotations

from django.urls import path

from .views import workspaces

# Workspaces, their files and guideline patterns.
urlpatterns = [
    path("", workspaces.workspace_list, name="workspace_list"),
    path("w/<slug:slug>/", workspaces.workspace_detail, name="workspace_detail"),
]

# Suites and their list of cases.
urlpatterns += [
    path("w/<slug:slug>/suites/<int:suite_pk>/", workspaces.suite_detail, name="suite_detail"),
]

# The case editor.
urlpatterns += []

"""URLs of the evals app."""

from __future__ import annotations

from django.urls import path

from .views import browse

urlpatterns = [
    path("", browse.workspace_list, name="workspace_list"),
    path("w/<slug:slug>/", browse.workspace_detail, name="workspace_detail"),
    path("w/<slug:slug>/suites/<int:suite_pk>/", browse.suite_detail, name="suite_detail"),
]

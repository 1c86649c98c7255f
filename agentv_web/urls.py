"""URL configuration: the admin, authentication, the JSON API and the evals app."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from evals_app.api.v1 import api_urls

urlpatterns = [
    path("admin/", admin.site.urls),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/v1/", api_urls()),
    path("", include("evals_app.urls")),
]

"""The login page as it answers a locked-out login (django-axes' AXES_LOCKOUT_CALLABLE)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def locked_out(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """The login form again, saying why it refuses and for how long (429 Too Many Requests)."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    form = AuthenticationForm(request, initial={"username": username})
    context = {
        "form": form,
        "next": request.POST.get("next", ""),
        "locked_out": True,
        "lockout_minutes": minutes,
        "failure_limit": settings.AXES_FAILURE_LIMIT,
    }
    return render(request, "registration/login.html", context, status=429)

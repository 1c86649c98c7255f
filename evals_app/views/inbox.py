"""The inbox: my notifications, the header's unread count, and which ones I get by email."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from ..models import Notification
from ..permissions import notifications_of, signed_in_user
from ..services.review.notifications import (
    email_kinds_of,
    mark_read,
    set_email_kinds,
    unread_count,
)
from .htmx_request import HtmxHttpRequest

INBOX_LENGTH = 100


@require_GET
def inbox(request: HtmxHttpRequest) -> HttpResponse:
    """My latest notifications, unread ones marked, and my email choices."""
    user = signed_in_user(request)
    notifications = list(notifications_of(user).select_related("actor")[:INBOX_LENGTH])
    context = {
        "notifications": notifications,
        "unread": sum(item.read_at is None for item in notifications),
        "kinds": Notification.Kind.choices,
        "email_kinds": email_kinds_of(user),
    }
    return render(request, "evals/inbox.html", context)


@require_GET
def inbox_count(request: HtmxHttpRequest) -> HttpResponse:
    """The header's link to the inbox, with the number of unread notifications."""
    count = unread_count(signed_in_user(request))
    return render(request, "evals/includes/inbox_link.html", {"unread": count})


@require_POST
def notification_open(request: HtmxHttpRequest, notification_pk: int) -> HttpResponse:
    """Mark a notification read and go to what it is about."""
    user = signed_in_user(request)
    notification = get_object_or_404(notifications_of(user), pk=notification_pk)
    mark_read(user, [notification.pk])
    return redirect(notification.link)


@require_POST
def inbox_read(request: HtmxHttpRequest) -> HttpResponse:
    """Mark every notification read."""
    count = mark_read(signed_in_user(request))
    messages.success(request, f"Marked {count} notification{'s' if count != 1 else ''} read.")
    return redirect("inbox")


@require_POST
def inbox_preferences(request: HtmxHttpRequest) -> HttpResponse:
    """Choose which kinds of notification also come by email."""
    set_email_kinds(signed_in_user(request), request.POST.getlist("email"))
    messages.success(request, "Saved your email choices.")
    return redirect("inbox")

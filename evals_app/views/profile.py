"""My profile: the email address my notifications go to, and which of them come by email."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from ..models import Notification
from ..permissions import signed_in_user
from ..services.accounts import AccountError, set_email
from ..services.review.notifications import email_kinds_of, set_email_kinds
from .htmx_request import HtmxHttpRequest


@require_http_methods(["GET", "POST"])
def profile(request: HtmxHttpRequest) -> HttpResponse:
    """Show my email and email choices; POST `email` sets the address, `kinds` the choices
    (`email_kinds`), each then back to this page (post/redirect/get)."""
    user = signed_in_user(request)
    context = {"email": user.email, "error": "", "kinds": Notification.Kind.choices}
    status = 200
    if request.method == "POST":
        if "kinds" in request.POST:
            set_email_kinds(user, request.POST.getlist("email_kinds"))
            messages.success(request, "Saved your email choices.")
            return redirect("profile")
        email = request.POST.get("email", "")
        try:
            saved = set_email(user, email)
        except AccountError as error:
            context.update(email=email, error=str(error))
            status = 422
        else:
            said = f"Notifications go to {saved}." if saved else "Your account has no email now."
            messages.success(request, said)
            return redirect("profile")
    context["email_kinds"] = email_kinds_of(user)
    return render(request, "evals/profile.html", context, status=status)

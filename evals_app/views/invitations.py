"""The page an invitation link opens: the invited person chooses a username and a password,
joins the workspace and is logged in (docs/user-guide.md, "Members")."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_not_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from ..services.workspaces.invitations import (
    InvitationError,
    accept_invitation,
    read_invitation,
)
from .htmx_request import HtmxHttpRequest

TEMPLATE = "registration/invitation.html"


@login_not_required
@require_http_methods(["GET", "POST"])
@never_cache
def invitation(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The invitation and a form to create the account; POST (`username`, `password1`,
    `password2`) creates it, logs the person in and opens the workspace."""
    try:
        invited = read_invitation(token)
    except InvitationError as error:
        return render(request, TEMPLATE, {"refused": str(error)}, status=410)
    context: dict[str, object] = {"invitation": invited, "username": ""}
    if request.method == "POST":
        username = request.POST.get("username", "")
        password = request.POST.get("password1", "")
        context["username"] = username
        if password != request.POST.get("password2", ""):
            context["error"] = "The two passwords differ: type the same password twice."
        else:
            try:
                account = accept_invitation(token, username, password)
            except InvitationError as error:
                context["error"] = str(error)
            else:
                login(request, account, backend="django.contrib.auth.backends.ModelBackend")
                messages.success(
                    request,
                    f"Welcome, {account.username}: you are {invited.role_label} of "
                    f"{invited.workspace.name}.",
                )
                return redirect(invited.workspace.get_absolute_url())
        return render(request, TEMPLATE, context, status=422)
    return render(request, TEMPLATE, context)

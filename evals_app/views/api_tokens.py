"""The API tokens page: create a token (shown once) and revoke tokens, each person their own."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_variables
from django.views.decorators.http import require_http_methods, require_POST

from ..permissions import signed_in_user
from ..services.api_tokens import TokenNameError, create_token, revoke_token
from .htmx_request import HtmxHttpRequest

TEMPLATE = "evals/api_tokens.html"
# The session key that carries a new token from the POST to the page it redirects to, once.
NEW_TOKEN_KEY = "new_api_token"


@sensitive_variables("token", "shown")
@require_http_methods(["GET", "POST"])
@never_cache  # the page that shows a new token must not be kept by a browser or a proxy
def api_tokens(request: HtmxHttpRequest) -> HttpResponse:
    """My tokens; POST (`name`) creates one and redirects to this page, which shows it this
    once (post/redirect/get: reloading the page never creates a second token)."""
    user = signed_in_user(request)
    context: dict[str, object] = {"name": ""}
    status = 200
    if request.method == "POST":
        name = request.POST.get("name", "")
        try:
            row, token = create_token(user, name)
        except TokenNameError as error:
            context.update(name=name, error=str(error))
            status = 422
        else:
            request.session[NEW_TOKEN_KEY] = {"pk": row.pk, "token": token}
            return redirect("api_tokens")
    else:
        shown = request.session.pop(NEW_TOKEN_KEY, None)
        if isinstance(shown, dict) and isinstance(shown.get("pk"), int):
            # A token revoked meanwhile (another tab) is not shown.
            shown_row = user.api_tokens.filter(pk=shown["pk"]).first()
            context.update(new_token=shown.get("token"), new_row=shown_row)
    context["tokens"] = list(user.api_tokens.all())
    return render(request, TEMPLATE, context, status=status)


@require_POST
def api_token_revoke(request: HtmxHttpRequest, token_pk: int) -> HttpResponse:
    """Revoke one of my tokens: it stops working at once."""
    row = revoke_token(signed_in_user(request), token_pk)
    if row is None:
        raise Http404("No such token.")
    messages.success(request, f"Revoked the token {row.name} ({row.prefix}…).")
    return redirect("api_tokens")

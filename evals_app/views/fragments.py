"""One URL, two answers: the whole page, or only the partial an htmx request swaps in.

As in django-htmx's example project: the template defines the partial inline
(`{% partialdef name inline %}`) and the view renders `"page.html#name"` for htmx requests.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import render

from .htmx_request import HtmxHttpRequest


def render_page(
    request: HtmxHttpRequest,
    template: str,
    context: dict[str, Any],
    *,
    partial: str,
    status: int = 200,
) -> HttpResponse:
    """Render `template`, or only its `partial` when htmx asks for a fragment.

    A history-restore request (the user went back and htmx's cache missed) gets the whole page.
    The partial renders pending messages itself when `is_fragment` is set, since the base
    layout that normally shows them is not part of the response.
    """
    if request.htmx and not request.htmx.history_restore_request:
        return render(
            request, f"{template}#{partial}", {**context, "is_fragment": True}, status=status
        )
    return render(request, template, context, status=status)

"""My queue: the cases owners assigned to me, in order, with progress and Next."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from ..permissions import signed_in_user
from ..request_numbers import parse_number
from ..services.review.assignments import my_queue, next_in_queue
from .htmx_request import HtmxHttpRequest


@require_GET
def queue(request: HtmxHttpRequest) -> HttpResponse:
    """A page of the signed-in reviewer's queue; opening the first marks what is new as seen."""
    mine = my_queue(signed_in_user(request), parse_number(request.GET.get("page")))
    return render(request, "evals/my_queue.html", {"queue": mine})


@require_GET
def queue_next(request: HtmxHttpRequest) -> HttpResponse:
    """Open the next case waiting in my queue after case `after` (the editor's Next)."""
    case = next_in_queue(signed_in_user(request), parse_number(request.GET.get("after")))
    if case is None:
        messages.success(request, "Nothing waits in your queue: every case is reviewed.")
        return redirect("my_queue")
    url = reverse("case_editor", args=[case.suite.workspace.slug, case.suite_id, case.pk])
    return redirect(f"{url}?queue=1")

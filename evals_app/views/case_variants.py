"""Variants of a conversation from the editor: fork a case at a turn, and take the changed
shared turns of its original (docs/user-guide.md, "Variants")."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from ..eval_files.errors import EvalFileError
from ..permissions import Capability, signed_in_user
from ..request_numbers import parse_number
from ..services.cases.editing import CaseConflict
from ..services.cases.variants import fork_case, take_prefix
from .htmx_request import HtmxHttpRequest
from .lookups import case_or_404


@require_POST
def case_fork(request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int) -> HttpResponse:
    """A new case sharing the saved case's input turns up to `turn`; opens its editor."""
    _, case = case_or_404(request, slug, suite_pk, case_pk, Capability.EDIT)
    turn = parse_number(request.POST.get("turn", ""))
    try:
        variant = fork_case(case, turn or 0, signed_in_user(request))
    except EvalFileError as error:
        messages.error(request, error.message)
        return redirect("case_editor", slug, suite_pk, case_pk)
    messages.success(
        request, f"Forked {case.case_id} at turn {turn}: this is its variant {variant.case_id}."
    )
    return redirect("case_editor", slug, suite_pk, variant.pk)


@require_POST
def case_take_prefix(
    request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int
) -> HttpResponse:
    """Give a variant its original's shared turns as they are now (the version it was shown)."""
    _, case = case_or_404(request, slug, suite_pk, case_pk, Capability.EDIT)
    version = parse_number(request.POST.get("version", ""))
    try:
        take_prefix(case, version or 0, signed_in_user(request))
    except EvalFileError as error:
        messages.error(request, error.message)
    except CaseConflict:
        messages.error(request, "The case was saved by someone else meanwhile: look again.")
    else:
        messages.success(request, "Took the original's shared turns.")
    return redirect("case_editor", slug, suite_pk, case_pk)

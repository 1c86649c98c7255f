"""A suggested edit of a case (docs/user-guide.md, "Suggested edits"): what it changes, as a
diff of the case and of its formatted question; its editors apply it or dismiss it with a reply.
A stale one shows the three versions and cannot be applied."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from ..eval_files.errors import EvalFileError
from ..models import Case, Suggestion
from ..permissions import Capability, WorkspaceAccess, signed_in_user
from ..services.profiles.workspace_formatter import WorkspaceFormatter
from ..services.review.document_diffs import document_diff
from ..services.review.suggestions import (
    SuggestionError,
    apply_suggestion,
    dismiss_suggestion,
    is_stale,
)
from .htmx_request import HtmxHttpRequest
from .lookups import case_or_404


@require_http_methods(["GET", "POST"])
def case_suggestion(
    request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int, suggestion_pk: int
) -> HttpResponse:
    """The suggestion against the case; POST `step` = `apply` or `dismiss` (with a `reply`),
    for editors."""
    access, case = case_or_404(request, slug, suite_pk, case_pk)
    suggestion = get_object_or_404(
        Suggestion.objects.select_related(
            "author", "resolved_by", "revision", "answers__author", "answers__thread"
        ),
        pk=suggestion_pk,
        case=case,
    )
    if request.method == "GET":
        return _page(request, access, case, suggestion)
    access.require(Capability.EDIT)
    step = request.POST.get("step")
    try:
        if step == "apply":
            apply_suggestion(suggestion, signed_in_user(request))
        elif step == "dismiss":
            dismiss_suggestion(suggestion, signed_in_user(request), request.POST.get("reply", ""))
        else:
            raise SuggestionError("Choose to apply or to dismiss the suggestion.")
    except (SuggestionError, EvalFileError) as error:
        case.refresh_from_db()
        suggestion.refresh_from_db()
        return _page(request, access, case, suggestion, error=str(error), status=422)
    if step == "apply":
        messages.success(request, f"Applied the suggestion to {case.case_id}.")
        return redirect("case_editor", access.workspace.slug, case.suite.pk, case.pk)
    messages.success(request, "Dismissed the suggestion.")
    return redirect("case_suggestion", access.workspace.slug, case.suite.pk, case.pk, suggestion.pk)


def _page(
    request: HtmxHttpRequest,
    access: WorkspaceAccess,
    case: Case,
    suggestion: Suggestion,
    *,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    formatter = WorkspaceFormatter(access.workspace)
    suite = case.suite
    stale = suggestion.is_open and is_stale(suggestion, case.document)
    context: dict[str, Any] = {
        "workspace": access.workspace,
        "suite": suite,
        "case": case,
        "access": access,
        "suggestion": suggestion,
        "stale": stale,
        "error": error,
        # What it changes in the case it was made on; when stale, what others changed since.
        "suggested": document_diff(formatter, suite, suggestion.base, suggestion.document),
        "since": document_diff(formatter, suite, suggestion.base, case.document) if stale else None,
        "against_now": (
            document_diff(formatter, suite, case.document, suggestion.document) if stale else None
        ),
    }
    return render(request, "evals/case_suggestion.html", context, status=status)

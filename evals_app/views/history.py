"""A case's revision history: the list, a side-by-side comparison of two revisions, restore."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from ..eval_files.errors import EvalFileError
from ..models import Case, Revision
from ..permissions import Capability, WorkspaceAccess, signed_in_user
from ..request_numbers import parse_number
from ..services.cases.editing import CaseConflict
from ..services.profiles import profile_of
from ..services.profiles.workspace_formatter import WorkspaceFormatter
from ..services.review.case_diff import (
    change_summary,
    conversation_diff,
    field_changes,
    fold_unchanged,
)
from ..services.review.document_diffs import document_diff
from ..services.review.formatting_diffs import formatting_diffs
from ..services.review.restoring import RestoreRefused, plan_restore, restore_revision
from .htmx_request import HtmxHttpRequest
from .lookups import case_or_404


@require_GET
def case_history(request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int) -> HttpResponse:
    """Every revision of the case, newest first, with a form to compare two of them."""
    access, case = case_or_404(request, slug, suite_pk, case_pk)
    return _history_page(request, access, case)


def _history_page(
    request: HtmxHttpRequest, access: WorkspaceAccess, case: Case, error: str = ""
) -> HttpResponse:
    revisions = list(
        case.revisions.select_related("author", "suggestion__author").order_by("-number")
    )
    # What each revision changed, from its snapshot and the one before (newest first).
    changes = [
        change_summary(older.snapshot, revision.snapshot)
        for revision, older in zip(revisions, revisions[1:], strict=False)
    ]
    if revisions:
        changes.append([])  # the oldest has nothing to compare with
    context = {
        "workspace": access.workspace,
        "suite": case.suite,
        "case": case,
        "access": access,
        "revisions": revisions,
        "rows": list(zip(revisions, changes, strict=True)),
        "error": error,
    }
    return render(request, "evals/case_history.html", context, status=422 if error else 200)


@require_GET
def case_compare(request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int) -> HttpResponse:
    """Two revisions side by side: the conversation, then what the model and judge now see."""
    access, case = case_or_404(request, slug, suite_pk, case_pk)
    pair = _revision_pair(case, request.GET.get("from"), request.GET.get("to"))
    if pair is None:
        return _history_page(request, access, case, "Choose two revisions of this case to compare.")
    old, new = pair
    context: dict[str, Any] = {
        "workspace": access.workspace,
        "suite": case.suite,
        "case": case,
        "access": access,
        "profile": profile_of(case.suite),
        "old": old,
        "new": new,
        # Unchanged turns and lines fold away ("show N unchanged …"), as in a code review.
        "turns": fold_unchanged(
            conversation_diff(old.snapshot, new.snapshot),
            lambda change: change.kind == "unchanged",
            context=1,
        ),
        "fields": field_changes(old.snapshot, new.snapshot),
        "tests": formatting_diffs(
            WorkspaceFormatter(access.workspace), case.suite, old.snapshot, new.snapshot
        ),
    }
    return render(request, "evals/case_compare.html", context)


@require_http_methods(["GET", "POST"])
def case_restore(
    request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int, number: int
) -> HttpResponse:
    """Restore an old revision as a new one: the page shows what restoring writes (converted to
    the suite's format, or refused with the reason) and asks first; the POST that confirms it
    names the case version the user saw (`version`)."""
    access, case = case_or_404(request, slug, suite_pk, case_pk, Capability.EDIT)
    revision = get_object_or_404(Revision, case=case, number=number)
    seen = parse_number(request.POST.get("version")) if request.method == "POST" else None
    if seen is not None:
        try:
            restore_revision(case, revision, seen, signed_in_user(request))
        except CaseConflict:
            case.refresh_from_db()
            return _restore_page(request, access, case, revision, changed_since=True)
        except (RestoreRefused, EvalFileError) as error:
            messages.error(request, f"Revision {number} was not restored: {error}")
        else:
            messages.success(request, f"Restored revision {number} of {case.case_id}.")
        return redirect("case_editor", access.workspace.slug, case.suite.pk, case.pk)
    return _restore_page(request, access, case, revision)


def _restore_page(
    request: HtmxHttpRequest,
    access: WorkspaceAccess,
    case: Case,
    revision: Revision,
    *,
    changed_since: bool = False,
) -> HttpResponse:
    plan = plan_restore(case, revision)
    formatter = WorkspaceFormatter(access.workspace)
    context = {
        "workspace": access.workspace,
        "suite": case.suite,
        "case": case,
        "plan": plan,
        "changed_since": changed_since,
        "diff": (
            document_diff(formatter, case.suite, case.document, plan.document)
            if plan.document is not None
            else None
        ),
    }
    status = 422 if plan.refusal else 200
    return render(request, "evals/case_restore.html", context, status=status)


def _revision_pair(
    case: Case, first: str | None, second: str | None
) -> tuple[Revision, Revision] | None:
    """The two revisions named by number, older first; None if either is not one of the case's."""
    chosen = (parse_number(first), parse_number(second))
    if None in chosen:
        return None
    numbers = sorted({number for number in chosen if number is not None})
    found = {
        r.number: r for r in case.revisions.select_related("author").filter(number__in=numbers)
    }
    if len(found) != len(numbers):
        return None
    return found[numbers[0]], found[numbers[-1]]

"""Acting on the cases selected on the suite page: submit, approve, add or remove a tag, move,
delete (confirmed), assign to reviewers."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from ..forms import CaseListForm
from ..models import Suite
from ..permissions import Capability, WorkspaceAccess, signed_in_user, workspace_access
from ..services.cases.bulk import (
    BulkResult,
    approve_cases,
    delete_cases,
    move_cases,
    submit_cases,
    tag_cases,
)
from ..services.cases.tags import TagError
from ..services.review.assignments import AssignmentError, assign_cases, unassign_cases
from .fragments import render_page
from .htmx_request import HtmxHttpRequest
from .suites import SUITE_PAGE, cases_changed, suite_context

# What each action needs, and the past tense its report uses.
BULK_ACTIONS = {
    "submit": (Capability.EDIT, "Submitted for review"),
    "approve": (Capability.REVIEW, "Approved"),
    "add-tag": (Capability.EDIT, "Tagged"),
    "remove-tag": (Capability.EDIT, "Untagged"),
    "move": (Capability.EDIT, "Moved"),
    "delete": (Capability.EDIT, "Deleted"),
    "assign": (Capability.MANAGE, "Assigned"),
    "spread": (Capability.MANAGE, "Spread over the reviewers"),
    "unassign": (Capability.MANAGE, "Unassigned"),
}
# More than a page of cases is never selected from the page; a bound keeps a request small.
MAX_SELECTED = 1000


@require_POST
@vary_on_headers("HX-Request")
def case_bulk(request: HtmxHttpRequest, slug: str, suite_pk: int) -> HttpResponse:
    """Apply `action` to the selected cases (`cases`, or every `page_cases` with `all_on_page`)
    and report what was done and what was refused; deleting asks for confirmation first."""
    action = request.POST.get("action", "")
    if action not in BULK_ACTIONS:
        return HttpResponseBadRequest("Unknown action.")
    needs, done_label = BULK_ACTIONS[action]
    access = workspace_access(request.user, slug, needs)
    suite = get_object_or_404(access.workspace.suites, pk=suite_pk)
    field = "page_cases" if request.POST.get("all_on_page") else "cases"
    selected = request.POST.getlist(field)
    if len(selected) > MAX_SELECTED or not all(pk.isdigit() for pk in selected):
        return HttpResponseBadRequest("The selection is not a list of cases.")
    pks = [int(pk) for pk in selected]
    if not pks:
        messages.info(request, "Select some cases first.")
        return cases_changed(request, access, suite)
    if action == "delete" and request.POST.get("confirmed") != "yes":
        return _confirm_delete(request, access, suite, pks)
    if action == "move":
        wanted = request.POST.get("target", "")
        target = access.workspace.suites.exclude(pk=suite.pk).filter(
            pk=int(wanted) if wanted.isdigit() else 0
        )
        if not target:
            messages.error(request, "Choose the suite to move the cases to.")
            return cases_changed(request, access, suite)
        result = move_cases(suite, pks, target[0], signed_in_user(request))
        done_label = f"Moved to {target[0].path}"
    elif action in ("add-tag", "remove-tag"):
        tag = request.POST.get("bulk_tag", "")
        try:
            result = tag_cases(
                suite, pks, tag, signed_in_user(request), remove=action == "remove-tag"
            )
        except TagError as error:
            messages.error(request, str(error))
            return cases_changed(request, access, suite)
        done_label = f"{done_label} “{tag.strip()}”"
        if not result.done and not result.refused:
            verb = "has" if action == "add-tag" else "has not"
            messages.info(request, f"Nothing to do: each selected case {verb} that tag.")
            return cases_changed(request, access, suite)
    elif action in ("assign", "spread", "unassign"):
        reviewers = [int(pk) for pk in request.POST.getlist("reviewers") if pk.isdigit()]
        try:
            if action == "unassign":
                result = unassign_cases(suite, pks, reviewers)
            else:
                spread = action == "spread"
                result = assign_cases(suite, pks, reviewers, signed_in_user(request), spread=spread)
        except AssignmentError as error:
            messages.error(request, str(error))
            return cases_changed(request, access, suite)
    elif action == "delete":
        result = delete_cases(suite, pks, signed_in_user(request))
    elif action == "submit":
        result = submit_cases(suite, pks, signed_in_user(request))
    else:
        result = approve_cases(suite, pks, signed_in_user(request))
    _report(request, result, done_label)
    return cases_changed(request, access, suite)


def _confirm_delete(
    request: HtmxHttpRequest, access: WorkspaceAccess, suite: Suite, pks: list[int]
) -> HttpResponse:
    """The page again, asking whether to delete the selected cases (nothing is changed yet)."""
    list_form = CaseListForm(request.POST)
    context = suite_context(access, suite, list_form, page=request.POST.get("page"))
    context["confirm_delete"] = list(suite.cases.filter(pk__in=pks).order_by("position"))
    return render_page(request, SUITE_PAGE, context, partial="cases")


def _report(request: HtmxHttpRequest, result: BulkResult, done_label: str) -> None:
    """One message for what was done, one per refused case with its reason."""
    if result.done:
        count = len(result.done)
        cases = "case" if count == 1 else "cases"
        said = f"{done_label}: {count} {cases} ({', '.join(result.done)})."
        # A deletion's Undo restores its batch (templates/evals/includes/messages.html).
        messages.success(request, said, extra_tags=f"undo:{result.undo}" if result.undo else "")
    for case_id, reason in result.refused:
        # The review rules' reasons may already start with the case's id.
        said = reason if reason.startswith(f"{case_id} ") else f"{case_id}: {reason}"
        messages.error(request, f"Not done: {said}")
    if not result.done and not result.refused:
        messages.info(request, "None of the selected cases is in this suite any more.")

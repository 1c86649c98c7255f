"""A workspace's deleted cases: the Deleted list, and restoring from it or from a deletion's
Undo (docs/user-guide.md, "Deleted cases")."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from ..permissions import Capability, signed_in_user, workspace_access
from ..request_numbers import parse_number
from ..services.cases.trash import RestoreError, deleted_cases, restore, trash_days
from .htmx_request import HtmxHttpRequest

# More than a few hundred deleted cases at once is a bulk deletion to undo, not to browse.
LISTED = 200


@require_GET
def deleted_list(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The cases deleted in the last AGENTV_TRASH_DAYS days, newest first, each restorable."""
    access = workspace_access(request.user, slug)
    records = list(deleted_cases(access.workspace)[:LISTED])
    context = {
        "workspace": access.workspace,
        "access": access,
        "records": records,
        "days": trash_days(),
    }
    return render(request, "evals/deleted_cases.html", context)


@require_POST
def deleted_restore(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Restore the cases of a deletion (`batch`, its Undo) or one deleted case (`deleted`),
    then show the suite it is back in; a refusal goes back to the Deleted list, saying why."""
    access = workspace_access(request.user, slug, Capability.EDIT)
    batch = request.POST.get("batch", "")
    pk = parse_number(request.POST.get("deleted", "")) or 0
    try:
        restored = restore(access.workspace, signed_in_user(request), batch=batch, pk=pk)
    except RestoreError as error:
        messages.error(request, str(error))
        return redirect("deleted_list", access.workspace.slug)
    count = len(restored.case_ids)
    named = ", ".join(restored.case_ids)
    messages.success(
        request, f"Restored {named}." if count == 1 else f"Restored {count} cases ({named})."
    )
    return redirect("suite_detail", access.workspace.slug, restored.suite.pk)

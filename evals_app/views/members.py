"""The workspace's members: owners add people by username, change roles and remove them."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from ..forms import MemberForm
from ..permissions import Capability, signed_in_user, workspace_access
from ..services.workspaces.memberships import MembershipError, add_member, remove_member
from .htmx_request import HtmxHttpRequest
from .workspaces import WORKSPACE_PAGE, workspace_context


@require_POST
def member_add(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Add a member (or change an existing member's role)."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    form = MemberForm(request.POST)
    if form.is_valid():
        try:
            membership = add_member(
                access.workspace,
                form.cleaned_data["username"],
                form.cleaned_data["role"],
                signed_in_user(request),
            )
        except MembershipError as error:
            form.add_error("username", str(error))
        else:
            messages.success(
                request, f"{membership.user.username} is now {membership.get_role_display()}."
            )
            return redirect(_members_url(slug))
    context = workspace_context(access, member_form=form)
    return render(request, WORKSPACE_PAGE, context, status=422)


@require_POST
def member_remove(request: HtmxHttpRequest, slug: str, membership_pk: int) -> HttpResponse:
    """Remove a member from the workspace."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    try:
        membership = remove_member(access.workspace, membership_pk, signed_in_user(request))
    except MembershipError as error:
        messages.error(request, str(error))
    except access.workspace.memberships.model.DoesNotExist:
        messages.error(request, "That person is not a member any more.")
    else:
        messages.success(request, f"Removed {membership.user.username}.")
    return redirect(_members_url(slug))


def _members_url(slug: str) -> str:
    return reverse("workspace_detail", args=[slug]) + "#members"

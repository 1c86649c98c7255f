"""The workspace's members: owners add people by username or email (inviting an email that has
no account yet), change roles and remove them."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from ..forms import MemberForm
from ..models import Membership
from ..permissions import Capability, signed_in_user, workspace_access
from ..services.workspaces.invitations import INVITATION_DAYS, add_or_invite
from ..services.workspaces.memberships import MembershipError, remove_member
from .htmx_request import HtmxHttpRequest
from .workspaces import WORKSPACE_PAGE, workspace_context


@require_POST
def member_add(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Add a member (or change an existing member's role), or invite an email no account
    has: the page then shows the invitation link to send them."""
    access = workspace_access(request.user, slug, Capability.MANAGE)
    form = MemberForm(request.POST)
    if form.is_valid():
        role = form.cleaned_data["role"]
        try:
            added = add_or_invite(
                access.workspace, form.cleaned_data["username"], role, signed_in_user(request)
            )
        except MembershipError as error:
            form.add_error("username", str(error))
        else:
            if added.membership is not None:
                membership = added.membership
                messages.success(
                    request, f"{membership.user.username} is now {membership.get_role_display()}."
                )
            else:
                link = request.build_absolute_uri(
                    reverse("invitation", args=[added.invitation_token])
                )
                # The message shows the link in a box with a copy button
                # (templates/evals/includes/messages.html).
                messages.success(
                    request,
                    f"No account has the email {form.cleaned_data['username'].strip()}. Send "
                    f"them this link: it lets them create their account and join as "
                    f"{Membership.Role(role).label}, once, within {INVITATION_DAYS} days.",
                    extra_tags=f"copy:{link}",
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

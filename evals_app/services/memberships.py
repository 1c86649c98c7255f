"""Who belongs to a workspace: owners add and remove members by username."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from ..models import ActivityRecord, Membership, Workspace
from .activity import record_activity


class MembershipError(ValueError):
    """A membership change that cannot be made, with the reason in words."""


def add_member(
    workspace: Workspace, username: str, role: str, actor: User | None = None
) -> Membership:
    """Give `username` the `role` in `workspace` (changing the role of an existing member)."""
    if role not in Membership.Role.values:
        raise MembershipError(f"{role!r} is not a role.")
    user = User.objects.filter(username=username.strip(), is_active=True).first()
    if user is None:
        raise MembershipError(f"There is no active account named {username.strip()!r}.")
    with transaction.atomic():
        previous = (
            Membership.objects.select_for_update()
            .filter(workspace=workspace, user=user)
            .values_list("role", flat=True)
            .first()
        )
        membership, _ = Membership.objects.update_or_create(
            workspace=workspace, user=user, defaults={"role": role}
        )
        _keep_an_owner(workspace)
        role_label = membership.get_role_display()
        if previous is None:
            action = ActivityRecord.Action.MEMBER_ADDED
            record_activity(workspace, actor, action, user.username, f"as {role_label}")
        elif previous != role:
            detail = f"from {Membership.Role(previous).label} to {role_label}"
            action = ActivityRecord.Action.MEMBER_CHANGED
            record_activity(workspace, actor, action, user.username, detail)
    return membership


def remove_member(
    workspace: Workspace, membership_pk: int, actor: User | None = None
) -> Membership:
    """Remove a member; the last owner cannot be removed (nobody could manage the workspace)."""
    with transaction.atomic():
        membership = Membership.objects.select_for_update().get(
            workspace=workspace, pk=membership_pk
        )
        membership.delete()
        _keep_an_owner(workspace)
        action = ActivityRecord.Action.MEMBER_REMOVED
        username = membership.user.username
        record_activity(workspace, actor, action, username, f"was {membership.get_role_display()}")
    return membership


def _keep_an_owner(workspace: Workspace) -> None:
    had_owners = Membership.objects.filter(workspace=workspace).exists()
    if had_owners and not workspace.memberships.filter(role=Membership.Role.OWNER).exists():
        raise MembershipError("A workspace with members keeps at least one owner.")

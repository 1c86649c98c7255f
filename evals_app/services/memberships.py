"""Who belongs to a workspace: owners add and remove members by username."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from ..models import Membership, Workspace


class MembershipError(ValueError):
    """A membership change that cannot be made, with the reason in words."""


def add_member(workspace: Workspace, username: str, role: str) -> Membership:
    """Give `username` the `role` in `workspace` (changing the role of an existing member)."""
    if role not in Membership.Role.values:
        raise MembershipError(f"{role!r} is not a role.")
    user = User.objects.filter(username=username.strip(), is_active=True).first()
    if user is None:
        raise MembershipError(f"There is no active account named {username.strip()!r}.")
    with transaction.atomic():
        membership, _ = Membership.objects.select_for_update().update_or_create(
            workspace=workspace, user=user, defaults={"role": role}
        )
        _keep_an_owner(workspace)
    return membership


def remove_member(workspace: Workspace, membership_pk: int) -> Membership:
    """Remove a member; the last owner cannot be removed (nobody could manage the workspace)."""
    with transaction.atomic():
        membership = Membership.objects.select_for_update().get(
            workspace=workspace, pk=membership_pk
        )
        membership.delete()
        _keep_an_owner(workspace)
    return membership


def _keep_an_owner(workspace: Workspace) -> None:
    had_owners = Membership.objects.filter(workspace=workspace).exists()
    if had_owners and not workspace.memberships.filter(role=Membership.Role.OWNER).exists():
        raise MembershipError("A workspace with members keeps at least one owner.")

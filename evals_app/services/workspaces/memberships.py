"""Who belongs to a workspace: owners add and remove members by username or email.

The one-owner rule: a workspace that has an owner keeps at least one, so that someone can
always manage its members. The first member (added by an administrator) may have any role.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from ...models import ActivityRecord, Membership, Workspace
from .activity import record_activity


class MembershipError(ValueError):
    """A membership change that cannot be made, with the reason in words."""


def add_member(
    workspace: Workspace, username: str, role: str, actor: User | None = None
) -> Membership:
    """Give `username` the `role` in `workspace` (changing the role of an existing member)."""
    if role not in Membership.Role.values:
        raise MembershipError(f"{role!r} is not a role.")
    user = account_named(username)
    with transaction.atomic():
        previous = (
            Membership.objects.select_for_update()
            .filter(workspace=workspace, user=user)
            .values_list("role", flat=True)
            .first()
        )
        had_owner = _has_owner(workspace)
        membership, _ = Membership.objects.update_or_create(
            workspace=workspace, user=user, defaults={"role": role}
        )
        if had_owner and not _has_owner(workspace):
            raise MembershipError(
                f"{user.username} is the last owner of {workspace.name}: make someone else an "
                f"owner first, then change {user.username}'s role ({ONE_OWNER_RULE})."
            )
        role_label = membership.get_role_display()
        if previous is None:
            action = ActivityRecord.Action.MEMBER_ADDED
            record_activity(workspace, actor, action, user.username, f"as {role_label}")
        elif previous != role:
            detail = f"from {Membership.Role(previous).label} to {role_label}"
            action = ActivityRecord.Action.MEMBER_CHANGED
            record_activity(workspace, actor, action, user.username, detail)
    return membership


def account_named(username_or_email: str) -> User:
    """The active account with this username, else the one with this email address
    (docs/user-guide.md, "Members"); MembershipError when there is none, or several."""
    text = username_or_email.strip()
    user = User.objects.filter(username=text, is_active=True).first()
    if user is not None:
        return user
    if "@" in text:
        found = list(User.objects.filter(email__iexact=text, is_active=True)[:2])
        if len(found) == 1:
            return found[0]
        if found:
            raise MembershipError(f"Several accounts have the email {text}: add one by username.")
    raise MembershipError(f"There is no active account named {text!r}.")


def remove_member(
    workspace: Workspace, membership_pk: int, actor: User | None = None
) -> Membership:
    """Remove a member; the last owner cannot be removed (nobody could manage the workspace)."""
    with transaction.atomic():
        membership = Membership.objects.select_for_update().get(
            workspace=workspace, pk=membership_pk
        )
        had_owner = _has_owner(workspace)
        membership.delete()
        if had_owner and not _has_owner(workspace):
            raise MembershipError(
                f"{membership.user.username} is the last owner of {workspace.name}: make "
                f"someone else an owner first, then remove them ({ONE_OWNER_RULE})."
            )
        action = ActivityRecord.Action.MEMBER_REMOVED
        username = membership.user.username
        record_activity(workspace, actor, action, username, f"was {membership.get_role_display()}")
    return membership


ONE_OWNER_RULE = "a workspace that has an owner keeps at least one, who manages its members"


def _has_owner(workspace: Workspace) -> bool:
    return workspace.memberships.filter(role=Membership.Role.OWNER).exists()

"""Who may do what, in one place: every view asks `workspace_access` before it touches data.

A workspace is invisible (404) to anyone who is not a member, previews and files included;
superusers see every workspace. Members get the capabilities of their role.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import Http404, HttpRequest

from .models import Membership, ReviewEvent, Workspace

Role = Membership.Role


class Capability(StrEnum):
    """What a role allows."""

    VIEW = "view"
    COMMENT = "comment"
    REVIEW = "review"
    EDIT = "edit"
    MANAGE = "manage"


ROLE_CAPABILITIES: dict[str, frozenset[Capability]] = {
    Role.OWNER: frozenset(Capability),
    Role.EDITOR: frozenset({Capability.VIEW, Capability.COMMENT, Capability.EDIT}),
    Role.REVIEWER: frozenset({Capability.VIEW, Capability.COMMENT, Capability.REVIEW}),
    Role.VIEWER: frozenset({Capability.VIEW}),
}

# The review steps people take (in the editor and through the API): the action each records
# and the capability it needs.
REVIEW_STEPS: dict[str, tuple[str, Capability]] = {
    "submit": (ReviewEvent.Action.SUBMITTED, Capability.EDIT),
    "approve": (ReviewEvent.Action.APPROVED, Capability.REVIEW),
    "request_changes": (ReviewEvent.Action.CHANGES_REQUESTED, Capability.REVIEW),
}

AnyUser = AbstractBaseUser | AnonymousUser


@dataclass(frozen=True)
class WorkspaceAccess:
    """A user's access to one workspace: its role there (None for a non-member superuser)."""

    workspace: Workspace
    role: str | None
    is_superuser: bool
    # Whose access it is (blind review hides others' reviews from this user).
    user_id: int | None = None

    def can(self, capability: Capability) -> bool:
        """Whether the user may do `capability` in this workspace."""
        if self.is_superuser:
            return True
        return self.role is not None and capability in ROLE_CAPABILITIES[self.role]

    def require(self, capability: Capability) -> None:
        """Raise PermissionDenied (403) unless the user may do `capability`."""
        if not self.can(capability):
            raise PermissionDenied(f"Your role in {self.workspace.name} does not allow this.")

    # For templates, which cannot call methods with arguments.
    @property
    def can_comment(self) -> bool:
        return self.can(Capability.COMMENT)

    @property
    def can_review(self) -> bool:
        return self.can(Capability.REVIEW)

    @property
    def can_edit(self) -> bool:
        return self.can(Capability.EDIT)

    @property
    def can_manage(self) -> bool:
        return self.can(Capability.MANAGE)

    @property
    def role_label(self) -> str:
        """The role in words."""
        return Role(self.role).label if self.role else "Administrator"


def visible_workspaces(user: AnyUser) -> QuerySet[Workspace]:
    """The workspaces `user` may see."""
    if not user.is_authenticated:
        return Workspace.objects.none()
    if getattr(user, "is_superuser", False):
        return Workspace.objects.all()
    return Workspace.objects.filter(memberships__user_id=user.pk)


def visible_workspace_roles(user: AnyUser) -> list[tuple[str, str, str | None]]:
    """(name, slug, role) of each workspace `user` may see, by name, in one query; the role
    is None where a superuser is not a member."""
    if not user.is_authenticated:
        return []
    memberships = Membership.objects.filter(workspace=OuterRef("pk"), user_id=user.pk)
    role = memberships.order_by().values("role")[:1]
    workspaces = visible_workspaces(user).annotate(my_role=Subquery(role))
    return list(workspaces.values_list("name", "slug", "my_role"))


def workspace_access(
    user: AnyUser, slug: str, needs: Capability = Capability.VIEW
) -> WorkspaceAccess:
    """The user's access to the workspace `slug`, in one query.

    Raises Http404 when the user may not see the workspace (as if it did not exist) and
    PermissionDenied when they may see it but not do what `needs` says.
    """
    if not user.is_authenticated:
        raise Http404("No such workspace.")
    # No ordering: the pair is unique, and Membership's default ordering would join two tables.
    memberships = Membership.objects.filter(workspace=OuterRef("pk"), user_id=user.pk)
    role = memberships.order_by().values("role")[:1]
    workspace = Workspace.objects.annotate(my_role=Subquery(role)).filter(slug=slug).first()
    is_superuser = bool(getattr(user, "is_superuser", False))
    if workspace is None or (workspace.my_role is None and not is_superuser):
        raise Http404("No such workspace.")
    access = WorkspaceAccess(workspace, workspace.my_role, is_superuser, user.pk)
    access.require(needs)
    return access


def may_manage(user: AnyUser, workspace: Workspace) -> bool:
    """Whether `user` may manage `workspace` (its owners, and superusers), e.g. import into it."""
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    owners = workspace.memberships.filter(user_id=user.pk, role=Role.OWNER)
    return owners.exists()


def signed_in_user(request: HttpRequest) -> User:
    """The request's user; every view runs behind LoginRequiredMiddleware, so there is one."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied("Log in first.")
    return user

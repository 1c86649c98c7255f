"""Who may do what and see what, in one place: every view asks `workspace_access` before it
touches data, and every reader of review data asks the blind review rule below.

A workspace is invisible (404) to anyone who is not a member, previews and files included;
superusers see every workspace. Members get the capabilities of their role.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import Case as Choose
from django.db.models import CharField, Exists, F, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.models.expressions import Combinable
from django.http import Http404, HttpRequest

from .models import (
    Case,
    Membership,
    Notification,
    ReviewEvent,
    ReviewRules,
    ReviewStatus,
    Workspace,
)

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
    # With its review rules, which blind review asks on every page that shows review data.
    workspaces = Workspace.objects.select_related("review_rules")
    workspace = workspaces.annotate(my_role=Subquery(role)).filter(slug=slug).first()
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


# Blind review (docs/user-guide.md, "Blind review"): until a reviewer of a blind workspace
# approved a case or requested changes on it, no one else's decision, note or score on it
# reaches them: not its status (they see it in review), not the review steps that tell a
# decision (in the editor, the activity feed, the API), not the notifications that carry one.
# Owners review too, so they review blind as well; editors and viewers see everything.

DECISIONS = (ReviewEvent.Action.APPROVED, ReviewEvent.Action.CHANGES_REQUESTED)
# The steps that tell what someone decided: decisions, an approval dismissed by an edit (there
# was one), and a case the changed rules moved (to approved or back).
TELLING_STEPS = (
    *DECISIONS,
    ReviewEvent.Action.APPROVAL_DISMISSED,
    ReviewEvent.Action.RULES_CHANGED,
)
# The statuses only someone's decision leads to.
DECIDED_STATUSES = (ReviewStatus.APPROVED, ReviewStatus.CHANGES_REQUESTED)
DECISION_KINDS = (Notification.Kind.APPROVED, Notification.Kind.CHANGES_REQUESTED)
REVIEWING_ROLES = [role for role, can in ROLE_CAPABILITIES.items() if Capability.REVIEW in can]


def reviews_blind(access: WorkspaceAccess) -> bool:
    """Whether the user of `access` reviews blind here (a reviewer in a blind workspace)."""
    if not access.can_review:
        return False
    try:
        return access.workspace.review_rules.blind
    except ReviewRules.DoesNotExist:
        return False  # a workspace that never set its rules has the defaults


def decided_by(user_id: int | None, case: str = "pk") -> Exists:
    """Whether the user approved or requested changes on the case (the row's `case` field)."""
    return Exists(
        ReviewEvent.objects.filter(case=OuterRef(case), actor_id=user_id, action__in=DECISIONS)
    )


def undecided_by(user_id: int | None, case_ids: list[int]) -> set[int]:
    """The ids among `case_ids` of the cases the user neither approved nor requested changes on
    (one query)."""
    decided = ReviewEvent.objects.filter(
        case_id__in=case_ids, actor_id=user_id, action__in=DECISIONS
    )
    return set(case_ids) - set(decided.values_list("case_id", flat=True))


def blind_to(access: WorkspaceAccess, cases: Iterable[Case]) -> set[int]:
    """The ids of `cases` whose others' reviews the user of `access` may not see yet (one
    query; none, and no query, when they do not review blind)."""
    if not reviews_blind(access):
        return set()
    return undecided_by(access.user_id, [case.pk for case in cases])


def blind_to_case(user: AnyUser, case: Case) -> bool:
    """blind_to for one user and case, without their WorkspaceAccess (two queries at most)."""
    in_blind = blind_workspaces(user).filter(pk=case.suite.workspace_id).exists()
    return in_blind and bool(undecided_by(user.pk, [case.pk]))


def shown_status(status: str, blind: bool) -> str:
    """The review status a user sees of a case with `status`; `blind`: the case is in
    blind_to for them (a decision of someone else shows as "in review")."""
    return ReviewStatus.IN_REVIEW if blind and status in DECIDED_STATUSES else status


def status_of(access: WorkspaceAccess, case: Case) -> str:
    """The review status of `case` as the user of `access` sees it."""
    return shown_status(case.status, bool(blind_to(access, [case])))


def status_seen_by(access: WorkspaceAccess) -> Combinable:
    """shown_status of each case of a query in the workspace of `access`, for its user, to
    filter, count and sort by (`.annotate(shown_status=status_seen_by(access))`)."""
    if not reviews_blind(access):
        return F("status")
    return _status_unless(_decided_status_hidden(access.user_id, "pk"), "status")


def status_seen_across(user: AnyUser, case: str = "case") -> Combinable:
    """shown_status of the case each row of a query names in its field `case` (`pk`: the rows
    are cases), across workspaces, for `user` (e.g. assignments in My queue)."""
    in_blind = Q(**{_field(case, "suite__workspace__in"): blind_workspaces(user)})
    return _status_unless(_decided_status_hidden(user.pk, case) & in_blind, _field(case, "status"))


def blind_workspaces(user: AnyUser) -> QuerySet[Workspace]:
    """The workspaces where `user` reviews blind."""
    blind = Workspace.objects.filter(review_rules__blind=True)
    if not user.is_authenticated:
        return blind.none()
    if getattr(user, "is_superuser", False):
        return blind
    reviewing = Membership.objects.filter(user_id=int(user.pk), role__in=REVIEWING_ROLES)
    return blind.filter(pk__in=reviewing.values("workspace_id"))


def _decided_status_hidden(user_id: int | None, case: str) -> Q:
    return Q(**{_field(case, "status__in"): DECIDED_STATUSES}) & Q(~decided_by(user_id, case))


def _field(case: str, name: str) -> str:
    """The lookup `name` of the case a row names in `case` (`pk`: the row is the case)."""
    return name if case == "pk" else f"{case}__{name}"


def _status_unless(hidden: Q, status: str) -> Combinable:
    return Choose(
        When(hidden, then=Value(ReviewStatus.IN_REVIEW.value)),
        default=F(status),
        output_field=CharField(),
    )


def steps_seen_by(access: WorkspaceAccess, steps: QuerySet[ReviewEvent]) -> QuerySet[ReviewEvent]:
    """The review steps of `steps` the user of `access` may see: none that tells a decision on
    a case they review blind and did not decide yet."""
    if not reviews_blind(access):
        return steps
    return steps.filter(~Q(action__in=TELLING_STEPS) | decided_by(access.user_id, "case"))


def notifications_of(user: AnyUser) -> QuerySet[Notification]:
    """The notifications `user` may read: of the workspaces they may still see, and none that
    tells someone's decision on a case they review blind and did not decide yet."""
    mine = Notification.objects.filter(recipient_id=user.pk, workspace__in=visible_workspaces(user))
    told_blind = Q(kind__in=DECISION_KINDS, workspace__in=blind_workspaces(user))
    return mine.filter(~told_blind | decided_by(user.pk, "case"))

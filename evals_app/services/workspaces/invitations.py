"""Inviting someone who has no account yet: an owner adds an email address and gets a link that
lets that person set a username and password and join with the role chosen (docs/user-guide.md,
"Members").

The link holds the email, the workspace and the role, signed with the site's secret key, so it
cannot be forged or changed. It expires after `INVITATION_DAYS`, and it is single-use: it
creates the account of that email, and once an account has that email it is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction

from ...models import Membership, Workspace
from .memberships import MembershipError, add_member

INVITATION_DAYS = 7
_SALT = "evals_app.invitation"
_USERNAME_MAX_LENGTH = User._meta.get_field("username").max_length or 150


class InvitationError(ValueError):
    """An invitation link that cannot be used, or an account it cannot create, in words."""


@dataclass(frozen=True)
class Invitation:
    """Who is invited (their email), to which workspace, with which role."""

    email: str
    workspace: Workspace
    role: str

    @property
    def role_label(self) -> str:
        """The role as the members list says it."""
        return str(Membership.Role(self.role).label)


def is_email(text: str) -> bool:
    """Whether what an owner typed in "Username or email" is an email address."""
    try:
        validate_email(text.strip())
    except ValidationError:
        return False
    return True


def invitation_token(workspace: Workspace, email: str, role: str) -> str:
    """The token of an invitation link for `email` (who has no account) to join `workspace`
    as `role`. Nothing is stored: the activity feed records the member once they join."""
    email = email.strip()
    if role not in Membership.Role.values:
        raise MembershipError(f"{role!r} is not a role.")
    if account_exists(email):
        raise MembershipError(f"An account has the email {email}: add it by its username.")
    return signing.dumps({"email": email, "workspace": workspace.pk, "role": role}, salt=_SALT)


@dataclass(frozen=True)
class MemberAdded:
    """What "Add or change member" did: a membership, or an invitation link's token for an
    email that no account has."""

    membership: Membership | None = None
    invitation_token: str = ""


def add_or_invite(
    workspace: Workspace, username_or_email: str, role: str, actor: User | None
) -> MemberAdded:
    """Add the account of this username or email to `workspace` with `role`; for an email no
    account has, an invitation to create one instead. MembershipError otherwise."""
    try:
        return MemberAdded(add_member(workspace, username_or_email, role, actor))
    except MembershipError:
        if not is_email(username_or_email) or account_exists(username_or_email):
            raise
    return MemberAdded(invitation_token=invitation_token(workspace, username_or_email, role))


def account_exists(email: str) -> bool:
    """Whether some account (active or not) has this email address."""
    return User.objects.filter(email__iexact=email.strip()).exists()


def read_invitation(token: str) -> Invitation:
    """The invitation `token` stands for; InvitationError when it was changed, has expired, was
    used already (an account has its email) or its workspace is gone."""
    try:
        data = signing.loads(token, salt=_SALT, max_age=timedelta(days=INVITATION_DAYS))
    except signing.SignatureExpired:
        raise InvitationError(
            f"This invitation has expired (links work for {INVITATION_DAYS} days): ask the "
            "workspace's owner for a new one."
        ) from None
    except signing.BadSignature:
        raise InvitationError("This invitation link is not valid: copy the whole link.") from None
    if (
        not isinstance(data, dict)
        or data.get("role") not in Membership.Role.values
        or not isinstance(data.get("workspace"), int)
    ):
        raise InvitationError("This invitation link is not valid: copy the whole link.")
    workspace = Workspace.objects.filter(pk=data["workspace"]).first()
    if workspace is None:
        raise InvitationError("The workspace of this invitation no longer exists.")
    email = str(data.get("email", ""))
    if account_exists(email):
        raise InvitationError(
            f"This invitation was used already: an account has the email {email}. Log in."
        )
    return Invitation(email, workspace, data["role"])


def accept_invitation(token: str, username: str, password: str) -> User:
    """Create the invited person's account (`username`, `password`) with the invitation's email,
    and make them a member of its workspace with its role. InvitationError when the link
    cannot be used or the username or password is refused."""
    username = username.strip()
    if not username:
        raise InvitationError("Choose a username.")
    if len(username) > _USERNAME_MAX_LENGTH:
        raise InvitationError(f"A username has at most {_USERNAME_MAX_LENGTH} characters.")
    try:
        User.username_validator(username)
    except ValidationError as error:
        raise InvitationError(" ".join(error.messages)) from None
    with transaction.atomic():
        invitation = read_invitation(token)
        # Two tabs accepting the same link at once take turns here; the second then finds the
        # account of the email and is refused (single use).
        Workspace.objects.select_for_update().filter(pk=invitation.workspace.pk).first()
        invitation = read_invitation(token)
        if User.objects.filter(username__iexact=username).exists():
            raise InvitationError(f"The username {username!r} is taken: choose another.")
        account = User(username=username, email=invitation.email)
        try:
            validate_password(password, account)
        except ValidationError as error:
            raise InvitationError(" ".join(error.messages)) from None
        account.set_password(password)
        try:
            with transaction.atomic():
                account.save()
        except IntegrityError:  # someone else took the username meanwhile
            raise InvitationError(f"The username {username!r} is taken: choose another.") from None
        add_member(invitation.workspace, account.username, invitation.role, account)
    return account

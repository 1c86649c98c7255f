"""A person's own account: the email address their notifications go to (docs/user-guide.md,
"Your profile")."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email

MAX_EMAIL_LENGTH = User._meta.get_field("email").max_length or 254


class AccountError(ValueError):
    """A change of one's account that cannot be made, with the reason in words."""


def set_email(user: User, email: str) -> str:
    """Give `user` the email address `email` (empty: none). Refused when it is no address, or
    another account has it: members are added and invitations refused by their email, which
    must name one account."""
    email = email.strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise AccountError(f"{email!r} is not an email address.") from None
        if len(email) > MAX_EMAIL_LENGTH:
            raise AccountError(f"An email address has at most {MAX_EMAIL_LENGTH} characters.")
        others = User.objects.filter(email__iexact=email).exclude(pk=user.pk)
        if others.exists():
            raise AccountError(f"Another account has the email {email}.")
    user.email = email
    user.save(update_fields=["email"])
    return email

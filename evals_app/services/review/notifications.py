"""Mentions and notifications: `@username` in a comment tells that member; assignments, requests
for changes and approvals tell the people concerned; each notification is in the inbox, and by
email too for the kinds a person chose (docs/user-guide.md, "Mentions and notifications").

Only members of the case's workspace are ever told: a name that is not one is plain text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import send_mass_mail
from django.db import transaction
from django.db.models import Max
from django.urls import reverse
from django.utils import timezone

from ...models import (
    Case,
    Membership,
    Notification,
    NotificationPreferences,
    ReviewEvent,
    Workspace,
)
from ...permissions import notifications_of

Kind = Notification.Kind
# Django's usernames: letters, digits and @ . + - _; a mention ends before trailing dots.
MENTION = re.compile(r"(?<![\w@.+-])@([\w.@+-]+)")


def mentioned(text: str) -> list[str]:
    """The usernames `text` mentions as `@username`, in order, each once."""
    names = (match.group(1).rstrip(".") for match in MENTION.finditer(text))
    return list(dict.fromkeys(name for name in names if name))


class MentionReach(NamedTuple):
    """Whom a text's mentions reach: the members told, and the names that tell nobody."""

    told: list[str]
    not_members: list[str]
    unknown: list[str]

    def said(self) -> list[str]:
        """What the comment form tells its author, one sentence per outcome."""
        sentences = []
        if self.told:
            sentences.append(f"Notified {_names(self.told)}.")
        if self.not_members:
            verb = "is not a member" if len(self.not_members) == 1 else "are not members"
            sentences.append(f"Not notified: {_names(self.not_members)} {verb} of this workspace.")
        if self.unknown:
            verb = "is no user" if len(self.unknown) == 1 else "are no users"
            sentences.append(f"Not notified: {_names(self.unknown)} {verb} here.")
        return sentences


def _names(names: list[str]) -> str:
    marked = [f"@{name}" for name in names]
    return marked[0] if len(marked) == 1 else f"{', '.join(marked[:-1])} and {marked[-1]}"


def mention_reach(workspace_id: int, text: str, author: User | None = None) -> MentionReach:
    """Who `text` (by `author`, never told of their own mention) reaches: the members it names
    are told; a name that is an account but no member, or no account, tells nobody."""
    names = [name for name in mentioned(text) if author is None or name != author.username]
    members = {user.username for user in members_named(workspace_id, names)}
    accounts = set(User.objects.filter(username__in=names).values_list("username", flat=True))
    return MentionReach(
        told=[name for name in names if name in members],
        not_members=[name for name in names if name in accounts - members],
        unknown=[name for name in names if name not in accounts],
    )


def members_named(workspace_id: int, names: Iterable[str]) -> list[User]:
    """The members of the workspace among `names` (anyone else is left out)."""
    wanted = list(names)
    if not wanted:
        return []
    members = Membership.objects.filter(workspace_id=workspace_id, user__username__in=wanted)
    return [membership.user for membership in members.select_related("user")]


def case_link(case: Case, anchor: str = "") -> str:
    """The path of the case's editor, at `anchor` (an element id) when given."""
    path = reverse("case_editor", args=[case.suite.workspace.slug, case.suite_id, case.pk])
    return f"{path}#{anchor}" if anchor else path


def notify(
    recipients: Iterable[User],
    kind: str,
    workspace: Workspace,
    actor: User | None,
    text: str,
    link: str,
    case: Case | None = None,
) -> list[Notification]:
    """Tell each recipient (never the actor themself) in the inbox, and by email those who
    chose `kind`, once the transaction commits."""
    people = {person.pk: person for person in recipients if actor is None or person.pk != actor.pk}
    text = " ".join(text.split())  # one line: it is also the email's subject
    notifications = Notification.objects.bulk_create(
        Notification(
            recipient=person,
            kind=kind,
            workspace=workspace,
            case=case,
            actor=actor,
            text=text[:300],
            link=link[:1000],
        )
        for person in people.values()
    )
    emailed = [
        (person, notification)
        for person, notification in zip(people.values(), notifications, strict=True)
        if person.email and _wants(person, kind)
    ]
    if emailed:
        transaction.on_commit(lambda: _send(emailed, text, link))
    return notifications


def mention_members(case: Case, author: User, text: str, anchor: str) -> list[Notification]:
    """Tell the workspace's members that `text` (a comment by `author`) mentions."""
    workspace = case.suite.workspace
    people = members_named(workspace.pk, mentioned(text))
    said = f"{author.username} mentioned you on {case.case_id}: {text[:150]}"
    return notify(people, Kind.MENTION, workspace, author, said, case_link(case, anchor), case)


def tell_authors(case: Case, event: ReviewEvent) -> None:
    """After a request for changes or an approval that approves: tell the case's last editor
    and whoever last submitted it."""
    if event.action == ReviewEvent.Action.CHANGES_REQUESTED:
        kind, verb = Kind.CHANGES_REQUESTED, "requested changes on"
    elif event.to_status == "approved" and event.from_status != "approved":
        kind, verb = Kind.APPROVED, "approved"
    else:
        return
    latest = case.revisions.aggregate(number=Max("number"))["number"]
    authors = set(case.revisions.filter(number=latest).values_list("author_id", flat=True))
    submitted = case.review_events.filter(action=ReviewEvent.Action.SUBMITTED).order_by("-pk")
    authors |= set(submitted.values_list("actor_id", flat=True)[:1])
    people = User.objects.filter(
        pk__in=authors - {None}, memberships__workspace=case.suite.workspace_id
    )
    who = event.actor.username if event.actor else "Someone"
    note = f": {event.note[:150]}" if event.note else ""
    text = f"{who} {verb} {case.case_id}{note}"
    notify(people, kind, case.suite.workspace, event.actor, text, case_link(case, "review"), case)


def unread_count(user: User) -> int:
    """How many of the notifications the user may read are unread (one query)."""
    return notifications_of(user).filter(read_at=None).count()


def mark_read(user: User, pks: Iterable[int] | None = None) -> int:
    """Mark the notifications `pks` the user may read read (all of them when None)."""
    unread = notifications_of(user).filter(read_at=None)
    if pks is not None:
        unread = unread.filter(pk__in=list(pks))
    return unread.update(read_at=timezone.now())


def email_kinds_of(user: User) -> list[str]:
    """The kinds of notification the user also gets by email."""
    preferences = NotificationPreferences.objects.filter(user_id=user.pk).first()
    return list(preferences.email_kinds) if preferences else list(Kind.values)


def set_email_kinds(user: User, kinds: Iterable[str]) -> list[str]:
    """Choose which kinds of notification the user also gets by email (unknown ones ignored)."""
    chosen = [kind for kind in Kind.values if kind in set(kinds)]
    NotificationPreferences.objects.update_or_create(user=user, defaults={"email_kinds": chosen})
    return chosen


def _wants(person: User, kind: str) -> bool:
    return kind in email_kinds_of(person)


def _send(emailed: list[tuple[User, Notification]], text: str, link: str) -> None:
    """Email each person their notification, if they may still read it when it goes out
    (permissions.notifications_of: a member removed meanwhile, or blind review)."""
    url = f"{settings.AGENTV_SITE_URL}{link}"
    subject = text if len(text) <= 78 else f"{text[:77]}…"
    body = f"{text}\n\n{url}\n\nChoose which notifications you get by email in your inbox."
    people = [
        person
        for person, notification in emailed
        if notifications_of(person).filter(pk=notification.pk).exists()
    ]
    send_mass_mail(
        [(subject, body, settings.DEFAULT_FROM_EMAIL, [person.email]) for person in people],
        fail_silently=True,
    )

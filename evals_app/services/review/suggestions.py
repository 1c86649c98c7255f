"""Suggested edits (docs/user-guide.md, "Suggested edits"): a member who may comment proposes
an exact new state of a case; an editor applies it (a new revision, credited to both) or
dismisses it with a reply. A suggestion made against a state the case has since left is stale:
it is shown against the three versions and never applied as is."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from ...eval_files.merge_keys import respelled
from ...eval_files.reading import read_case
from ...models import Case, Comment, Suggestion
from ..cases.editing import CaseConflict, save_case
from .notifications import Kind, case_link, mention_members, notify

MAX_NOTE_LENGTH = 10_000


class SuggestionError(ValueError):
    """A suggestion that cannot be made, applied or dismissed, with the reason in words."""


class SuggestionConflict(SuggestionError):
    """The case is not in the state the suggestion needs: it moved on since it was read (for a
    new suggestion) or since the suggestion was made (stale: never applied as is)."""


def is_stale(suggestion: Suggestion, current: dict[Any, Any]) -> bool:
    """Whether the case (now `current`) has changed since the suggestion was made."""
    return bool(current != suggestion.base)


def suggest(
    case: Case,
    author: User,
    document: dict[str, Any],
    base_version: int,
    note: str = "",
    answers: int | None = None,
) -> Suggestion:
    """Propose `document` as the new state of `case`, made from the case at `base_version`;
    `answers`: the id of the comment on the case it answers (its "Suggest a change").

    Raises EvalFileError when the document is not a valid case, SuggestionError when it changes
    nothing, answers no comment of the case, or the case moved on since `base_version` (the
    suggester must see the new state)."""
    if case.suite.read_only:
        raise SuggestionError(f"The cases of {case.suite.path} are read-only: nothing to suggest.")
    read_case(document)
    note = _clean(note, required=False)
    with transaction.atomic():
        current = (
            Case.objects.select_for_update().select_related("suite__workspace").get(pk=case.pk)
        )
        if current.version != base_version:
            raise SuggestionConflict(
                f"The case was saved (version {current.version}) after you opened it "
                f"(version {base_version}); reload it and suggest on the current version."
            )
        document = respelled(document, current.document)
        if document == current.document:
            raise SuggestionError("The suggestion changes nothing.")
        comment = None
        if answers is not None:
            comment = Comment.objects.filter(pk=answers, thread__case=current).first()
            if comment is None:
                raise SuggestionError(
                    f"Comment {answers} is not a comment on {current.case_id}: the suggestion "
                    "cannot answer it."
                )
        suggestion = Suggestion.objects.create(
            case=current,
            author=author,
            base=current.document,
            base_version=current.version,
            document=document,
            note=note,
            answers=comment,
        )
        _tell_last_editor(current, suggestion)
        if note:
            mention_members(current, author, note, _anchor(suggestion))
    return suggestion


def apply_suggestion(suggestion: Suggestion, actor: User) -> Case:
    """Make the suggestion the case's new state: a revision by `actor` that records the
    suggestion's author too. Raises SuggestionError when it is no longer open or is stale."""
    with transaction.atomic():
        locked = Suggestion.objects.select_for_update().get(pk=suggestion.pk)
        if not locked.is_open:
            raise SuggestionError(f"This suggestion was already {locked.get_state_display()}.")
        case = Case.objects.select_related("suite__workspace").get(pk=locked.case_id)
        if is_stale(locked, case.document):
            raise SuggestionConflict(_stale_message(locked, case))
        who = locked.author.username if locked.author else "someone"
        try:
            saved = save_case(
                case, locked.document, case.version, actor, summary=f"applied suggestion by {who}"
            )
        except CaseConflict as conflict:
            raise SuggestionConflict(_stale_message(locked, conflict.current)) from None
        # save_case locked the case: its newest revision is the one just recorded.
        number = saved.revisions.aggregate(last=Max("number"))["last"]
        locked.revision = saved.revisions.get(number=number)
        _resolve(locked, Suggestion.State.APPLIED, actor)
    suggestion.refresh_from_db()
    return saved


def dismiss_suggestion(suggestion: Suggestion, actor: User, reply: str) -> Suggestion:
    """Close the suggestion without applying it; `reply` tells its author why."""
    reply = _clean(reply, required=True)
    with transaction.atomic():
        locked = Suggestion.objects.select_for_update().get(pk=suggestion.pk)
        if not locked.is_open:
            raise SuggestionError(f"This suggestion was already {locked.get_state_display()}.")
        locked.reply = reply
        _resolve(locked, Suggestion.State.DISMISSED, actor)
        case = Case.objects.select_related("suite__workspace").get(pk=locked.case_id)
        if locked.author is not None:
            text = f"{actor.username} dismissed your suggestion on {case.case_id}: {reply[:150]}"
            notify(
                [locked.author],
                Kind.SUGGESTION,
                case.suite.workspace,
                actor,
                text,
                case_link(case, _anchor(locked)),
                case,
            )
        mention_members(case, actor, reply, _anchor(locked))
    suggestion.refresh_from_db()
    return suggestion


def _resolve(suggestion: Suggestion, state: str, actor: User) -> None:
    suggestion.state = state
    suggestion.resolved_by = actor
    suggestion.resolved_at = timezone.now()
    suggestion.save(update_fields=["state", "resolved_by", "resolved_at", "reply", "revision"])


def _tell_last_editor(case: Case, suggestion: Suggestion) -> None:
    """The author of the case's newest revision is told (none for a case never edited here)."""
    newest = case.revisions.order_by("-number").select_related("author").first()
    editor = newest.author if newest else None
    if editor is None or not editor.memberships.filter(workspace=case.suite.workspace).exists():
        return
    who = suggestion.author.username if suggestion.author else "Someone"
    text = f"{who} suggested a change to {case.case_id}"
    if suggestion.note:
        text += f": {suggestion.note[:150]}"
    link = case_link(case, _anchor(suggestion))
    notify([editor], Kind.SUGGESTION, case.suite.workspace, suggestion.author, text, link, case)


def _anchor(suggestion: Suggestion) -> str:
    return f"suggestion-{suggestion.pk}"


def _stale_message(suggestion: Suggestion, case: Case) -> str:
    return (
        f"The case changed since this suggestion was made (it was made on version "
        f"{suggestion.base_version}, the case is at version {case.version}): it cannot be applied "
        "as is. Compare the three versions, then edit the case or suggest again."
    )


def _clean(text: str, *, required: bool) -> str:
    text = text.replace("\r\n", "\n").strip()
    if required and not text:
        raise SuggestionError("Say why: the reply is empty.")
    if len(text) > MAX_NOTE_LENGTH:
        raise SuggestionError(f"The text is longer than {MAX_NOTE_LENGTH:,} characters.")
    return text

"""Comment threads on a case or on one of its turns: start, reply, resolve, reopen."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from ...eval_files.case_parts import SECTIONS
from ...models import Case, Comment, CommentThread
from .case_diff import turns_of
from .notifications import mention_members

MAX_COMMENT_LENGTH = 10_000
EXCERPT_LENGTH = 160


class CommentError(ValueError):
    """A comment that cannot be posted, with the reason in words."""


def start_thread(
    case: Case, author: User, text: str, section: str = "", turn: int | None = None
) -> CommentThread:
    """Start a thread about the case, or about turn `turn` of `section` (input or expected)."""
    text = _clean(text)
    excerpt = ""
    if turn is not None:
        if section not in SECTIONS:
            raise CommentError("A comment on a turn names the input or expected messages.")
        turns = turns_of(case.document, section)
        if not 0 <= turn < len(turns):
            raise CommentError(f"The case has no {section} turn {turn + 1}.")
        message = turns[turn]
        words = " ".join([message.text, *message.files])
        excerpt = f"{message.role}: {words}"[:EXCERPT_LENGTH]
    with transaction.atomic():
        thread = CommentThread.objects.create(
            case=case,
            section=section if turn is not None else "",
            turn=turn,
            excerpt=excerpt,
            created_by=author,
        )
        Comment.objects.create(thread=thread, author=author, text=text)
        mention_members(case, author, text, _anchor_of(thread))
    return thread


def reply(thread: CommentThread, author: User, text: str) -> Comment:
    """Add a comment to a thread (reopening it if it was resolved)."""
    comment = Comment.objects.create(thread=thread, author=author, text=_clean(text))
    if thread.is_resolved:
        reopen(thread)
    mention_members(thread.case, author, comment.text, _anchor_of(thread))
    return comment


def _anchor_of(thread: CommentThread) -> str:
    """Where the editor shows the thread: beside its turn, or in the review panel."""
    return f"threads-{thread.anchor}" if thread.anchor else f"thread-{thread.pk}"


def resolve(thread: CommentThread, actor: User) -> None:
    """Mark the thread resolved."""
    thread.resolved_at = timezone.now()
    thread.resolved_by = actor
    thread.save(update_fields=["resolved_at", "resolved_by"])


def reopen(thread: CommentThread) -> None:
    """Mark a resolved thread open again."""
    thread.resolved_at = None
    thread.resolved_by = None
    thread.save(update_fields=["resolved_at", "resolved_by"])


def _clean(text: str) -> str:
    # Plain text: line breaks are kept (the template shows them), only the ends are trimmed.
    text = text.replace("\r\n", "\n").strip()
    if not text:
        raise CommentError("The comment is empty.")
    if len(text) > MAX_COMMENT_LENGTH:
        raise CommentError(f"The comment is longer than {MAX_COMMENT_LENGTH:,} characters.")
    return text

"""Variants of a conversation (docs/user-guide.md, "Variants"): a case forked from another at
turn k shares its first k input turns, and says so in its `metadata.variant_of: {id, turn}`,
which AgentV ignores and git keeps. When the original's shared turns change, the variant is
told and may take the change; nothing changes by itself."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from ...eval_files.case_parts import join_case, split_case
from ...eval_files.errors import EvalFileError
from ...eval_files.yaml_dumper import dump_yaml
from ...models import Case, ReviewStatus
from ..review.revisions import record_revision
from .editing import check_editable, save_case
from .list_changes import unused_id
from .positions import position_after
from .summaries import refresh_case

METADATA_KEY = "metadata"
VARIANT_KEY = "variant_of"


@dataclass(frozen=True)
class VariantLink:
    """Which case a variant was forked from, and how many input turns they share."""

    case_id: str
    turn: int


@dataclass(frozen=True)
class PrefixChange:
    """The shared turns of a variant's original, changed since the fork: as a unified diff of
    the variant's turns against the original's."""

    original: Case
    link: VariantLink
    diff: list[str]


def variant_link(document: Any) -> VariantLink | None:
    """The `metadata.variant_of` of a case document, when it is a well-formed link."""
    metadata = document.get(METADATA_KEY) if isinstance(document, dict) else None
    link = metadata.get(VARIANT_KEY) if isinstance(metadata, dict) else None
    if not isinstance(link, dict):
        return None
    case_id, turn = link.get("id"), link.get("turn")
    if not isinstance(case_id, str) or not isinstance(turn, int) or isinstance(turn, bool):
        return None
    return VariantLink(case_id, turn) if turn >= 1 else None


def fork_case(case: Case, turn: int, author: User | None = None) -> Case:
    """A new case after `case` whose input is `case`'s first `turn` turns, the rest of it a
    copy, linked as its variant. Raises EvalFileError when `case` has no such turn."""
    with transaction.atomic():
        original = Case.objects.select_related("suite").select_for_update().get(pk=case.pk)
        suite = original.suite
        check_editable(suite)
        parts = split_case(original.document)
        if not 1 <= turn <= len(parts.input_messages):
            raise EvalFileError(
                f"There is no input turn {turn} to fork from (the case has "
                f"{len(parts.input_messages)}).",
                case_id=original.case_id,
                field="input",
            )
        variant = Case(suite=suite, status=ReviewStatus.DRAFT)
        variant.case_id = unused_id(suite, original.case_id, "variant")
        variant.position = position_after(suite.cases.all(), original.position)
        parts.case_id = variant.case_id
        parts.input_messages = parts.input_messages[:turn]
        document = join_case(parts)
        metadata = document.get(METADATA_KEY)
        document[METADATA_KEY] = {
            **(metadata if isinstance(metadata, dict) else {}),
            VARIANT_KEY: {"id": original.case_id, "turn": turn},
        }
        variant.document = document
        refresh_case(variant, suite)
        variant.save()
        record_revision(variant, author, f"forked from {original.case_id} at turn {turn}", document)
    return variant


def prefix_change(variant: Case) -> PrefixChange | None:
    """How the original's shared turns differ from the variant's, None when they are the same
    (or the variant's original is gone)."""
    link = variant_link(variant.document)
    if link is None:
        return None
    original = Case.objects.filter(suite_id=variant.suite_id, case_id=link.case_id).first()
    if original is None:
        return None
    ours, theirs = _shared_turns(variant.document, link), _shared_turns(original.document, link)
    if ours is None or theirs is None or ours == theirs:
        return None
    diff = difflib.unified_diff(
        _turns_text(ours).splitlines(),
        _turns_text(theirs).splitlines(),
        f"{variant.case_id} (turns 1–{link.turn})",
        f"{original.case_id} (turns 1–{link.turn})",
        lineterm="",
    )
    return PrefixChange(original, link, list(diff))


def take_prefix(variant: Case, base_version: int, author: User | None = None) -> Case:
    """Give `variant` its original's shared turns as they are now, saved as an edit (a
    revision, the version check). Raises EvalFileError when there is no change to take."""
    change = prefix_change(variant)
    if change is None:
        raise EvalFileError("The shared turns are the same as the original's.", field="input")
    parts = split_case(variant.document)
    theirs = split_case(change.original.document).input_messages[: change.link.turn]
    parts.input_messages = theirs + parts.input_messages[change.link.turn :]
    summary = f"took the shared turns of {change.original.case_id}"
    return save_case(variant, join_case(parts), base_version, author, summary)


def _shared_turns(document: Any, link: VariantLink) -> list[dict[Any, Any]] | None:
    try:
        messages = split_case(document).input_messages
    except EvalFileError:
        return None
    return messages[: link.turn] if len(messages) >= link.turn else None


def _turns_text(turns: list[dict[Any, Any]]) -> str:
    return dump_yaml(turns)

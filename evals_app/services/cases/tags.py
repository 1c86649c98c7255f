"""A case's tags: the `tags` list of its YAML mapping, read here and nowhere else.

Today's AgentV files have `tags` per test; older ones may carry it as a key of their own. It
sits in the case's document (`Case.document`, stored as JSON text). Every reader of tags, and the
query that finds the cases with a tag, lives in this module.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet

from ...models import Case


def case_tags(document: Mapping[str, Any]) -> list[str]:
    """The tags of a case's mapping, in their order: `tags: [a, b]`, or `tags: a` for one.

    Items that are not strings (`tags: [2024]` reads as a number) are not tags.
    """
    tags = document.get("tags")
    if isinstance(tags, str):
        return [tags]
    if isinstance(tags, list):
        return [tag for tag in tags if isinstance(tag, str)]
    return []


def tags_of(case: Case) -> list[str]:
    """The tags of a stored case (no query)."""
    return case_tags(case.document)


def cases_tagged(cases: QuerySet[Case], tag: str) -> QuerySet[Case]:
    """Those of `cases` that have `tag` among their tags, exactly (one query, run now).

    The database narrows the rows down by text (the stored JSON holds a `"tags":` key and the
    tag as a JSON string, spelled as the column's encoder spells it), and each candidate is then
    checked here: the text may also be another key's value, and SQLite's LIKE ignores case.
    """
    candidates = cases.filter(document__contains='"tags":').filter(
        document__contains=json.dumps(tag, ensure_ascii=False)
    )
    exact = [
        pk
        for pk, document in candidates.values_list("pk", "document")
        if tag in case_tags(document)
    ]
    return cases.filter(pk__in=exact)


MAX_TAG_LENGTH = 200


class TagError(ValueError):
    """A tag that cannot be added, with the reason in words."""


def checked_tag(text: str) -> str:
    """`text` as a tag (spaces around it dropped); TagError when it is empty, too long or
    spans lines (a tag is one word or phrase on the suite page's filter)."""
    tag = text.strip()
    if not tag:
        raise TagError("Type the tag to add or remove.")
    if len(tag) > MAX_TAG_LENGTH:
        raise TagError(f"A tag has at most {MAX_TAG_LENGTH} characters.")
    if any(character in tag for character in "\r\n\t\x00"):
        raise TagError("A tag is one line of text.")
    return tag


def with_tag(document: dict[str, Any], tag: str) -> dict[str, Any] | None:
    """`document` with `tag` added at the end of its tags, or None when it has it already."""
    tags = case_tags(document)
    if tag in tags:
        return None
    kept = document.get("tags")
    others = kept if isinstance(kept, list) else ([kept] if isinstance(kept, str) else [])
    return {**document, "tags": [*others, tag]}


def without_tag(document: dict[str, Any], tag: str) -> dict[str, Any] | None:
    """`document` without `tag` (and without `tags` once none is left), or None when it does
    not have it."""
    if tag not in case_tags(document):
        return None
    kept = document.get("tags")
    left = [item for item in kept if item != tag] if isinstance(kept, list) else []
    changed = {**document, "tags": left}
    if not left:
        del changed["tags"]
    return changed

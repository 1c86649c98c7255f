"""Reading stored cases in bulk: each case's YAML mapping built straight from rows, in chunks.

Export and the refresh of case summaries read thousands of cases. Model instances and
prefetching cost more there than the formatting itself, so this reads plain rows — two
queries per chunk, memory bounded by the chunk — and builds the same mappings
`documents.case_document` builds from model instances.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import F, QuerySet, TextField
from django.db.models.functions import Cast

from ..models import Case, Message
from .documents import BlockValues, case_mapping, message_mapping

CHUNK_SIZE = 500  # cases per chunk; also the number of parameters of the `IN (...)` queries
_CASE_COLUMNS = ("pk", "case_id", "conversation_id", "outcome", "execution", "extra", "key_order")
# Key orders repeat (`["role","content"]`), and are only read: each distinct one is decoded once.
_KEY_ORDERS: dict[str, list[str]] = {}
_MAX_KEY_ORDERS = 1000


@dataclass(frozen=True, slots=True)
class StoredCase:
    """A stored case as export writes it: its primary key, its mapping, its input turns."""

    pk: int
    document: dict[str, Any]
    input_turns: int


def stored_cases(
    cases: QuerySet[Case], *, order: str = "position", chunk_size: int = CHUNK_SIZE
) -> Iterator[StoredCase]:
    """The cases of `cases`, ordered by `order` (a field unique among them), chunk by chunk.

    `position` orders the cases of one suite; use `pk` for cases of several suites. Two queries
    per chunk.
    """
    ordered = cases.order_by(order)
    last: Any = None
    while True:
        page = ordered if last is None else ordered.filter(**{f"{order}__gt": last})
        rows = list(page.values_list(order, *_CASE_COLUMNS)[:chunk_size])
        if not rows:
            return
        yield from _documents([row[1:] for row in rows])
        if len(rows) < chunk_size:
            return
        last = rows[-1][0]


def loaded_cases(cases: Sequence[Case]) -> list[StoredCase]:
    """`stored_cases` for case rows already loaded (at most CHUNK_SIZE): one query."""
    rows = [
        (c.pk, c.case_id, c.conversation_id, c.outcome, c.execution, c.extra, c.key_order)
        for c in cases
    ]
    return list(_documents(rows))


def stored_document(case: Case) -> dict[str, Any]:
    """`documents.case_document` of one case, read as rows: one query, no model objects."""
    return loaded_cases([case])[0].document


def _documents(case_rows: list[tuple[Any, ...]]) -> Iterator[StoredCase]:
    pks = [row[0] for row in case_rows]
    messages: dict[int, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {
        pk: ([], []) for pk in pks
    }
    # Messages with their blocks, one row per block (a message without blocks gives one row
    # of NULL block columns), in order.
    rows = (
        Message.objects.filter(case_id__in=pks)
        .order_by("case_id", "section", "position", "blocks__position")
        .values_list(
            "pk",
            "case_id",
            "section",
            "role",
            "content_form",
            *_MESSAGE_JSON,
            "blocks__type",
            "blocks__value",
            "blocks__bare",
            *_BLOCK_JSON,
        )
    )
    current: Any = None
    current_message: list[Any] = []
    blocks: list[BlockValues] = []
    for message_pk, *message, block_type, value, bare, block_extra, block_order in rows:
        if message_pk != current:
            if current is not None:
                _add_message(messages, current_message, blocks)
            current, current_message, blocks = message_pk, message, []
        if block_type is not None:
            blocks.append((block_type, value, bare, _mapping(block_extra), _key_order(block_order)))
    if current is not None:
        _add_message(messages, current_message, blocks)
    for pk, case_id, conversation_id, outcome, execution, extra, key_order in case_rows:
        inputs, expected = messages[pk]
        document = case_mapping(
            case_id, conversation_id, outcome, execution, extra, key_order, inputs, expected
        )
        yield StoredCase(pk, document, len(inputs))


def _add_message(
    messages: dict[int, tuple[list[dict[str, Any]], list[dict[str, Any]]]],
    message: list[Any],
    blocks: list[BlockValues],
) -> None:
    case_pk, section, role, content_form, extra, key_order = message
    mapping = message_mapping(role, content_form, _mapping(extra), _key_order(key_order), blocks)
    inputs, expected = messages[case_pk]
    (inputs if section == Message.Section.INPUT else expected).append(mapping)


# The JSON columns of messages and blocks as stored text, decoded below with shortcuts for the
# values nearly every row has (most of the time of reading rows went to `json.loads`).
_MESSAGE_JSON = (
    Cast(F("extra"), output_field=TextField()),
    Cast(F("key_order"), output_field=TextField()),
)
_BLOCK_JSON = (
    Cast(F("blocks__extra"), output_field=TextField()),
    Cast(F("blocks__key_order"), output_field=TextField()),
)


def _mapping(text: str) -> dict[str, Any]:
    if text == "{}":
        return {}
    value: dict[str, Any] = json.loads(text)
    return value


def _key_order(text: str) -> list[str]:
    try:
        return _KEY_ORDERS[text]
    except KeyError:
        value: list[str] = json.loads(text)
        if len(_KEY_ORDERS) < _MAX_KEY_ORDERS:
            _KEY_ORDERS[text] = value
        return value

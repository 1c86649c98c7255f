"""Stored rows to eval YAML mappings and back, keeping every key and its original order."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Prefetch, QuerySet

from ..formatting.key_order import ordered_mapping, split_mapping
from ..formatting.schema import EVAL_SCHEMA
from ..models import Case, ContentBlock, Message, Suite
from .row_inserts import insert_rows, json_text, key_order_text

FILE_KEYS = ("$schema", "description", "dataset", "target", "execution", "evalcases")
CASE_KEYS = ("id", "conversation_id", "outcome", "input_messages", "expected_messages", "execution")
MESSAGE_KEYS = ("role", "content")
BLOCK_KEYS = ("type", "value")


def with_conversation(cases: QuerySet[Case]) -> QuerySet[Case]:
    """`cases` with their messages and blocks prefetched in order (three queries in all)."""
    blocks = Prefetch("blocks", queryset=ContentBlock.objects.order_by("position"))
    messages = Message.objects.order_by("section", "position").prefetch_related(blocks)
    return cases.prefetch_related(Prefetch("messages", queryset=messages))


# A content block as plain values: type, value, bare, extra, key_order (see case_reading).
BlockValues = tuple[str, str, bool, dict[str, Any], list[str]]


def block_document(block: ContentBlock) -> Any:
    """A content block as written in YAML: a mapping, or a bare string."""
    return block_mapping(block.type, block.value, block.bare, block.extra, block.key_order)


def block_mapping(
    block_type: str, value: str, bare: bool, extra: dict[str, Any], key_order: list[str]
) -> Any:
    """`block_document` from a block's values rather than its row."""
    if bare:
        return value
    return ordered_mapping({"type": block_type, "value": value}, extra, key_order)


def message_document(message: Message, blocks: Iterable[ContentBlock]) -> dict[str, Any]:
    """A message as written in YAML, its content a string where it was one."""
    values = [(b.type, b.value, b.bare, b.extra, b.key_order) for b in blocks]
    return message_mapping(
        message.role, message.content_form, message.extra, message.key_order, values
    )


def message_mapping(
    role: str,
    content_form: str,
    extra: dict[str, Any],
    key_order: list[str],
    blocks: list[BlockValues],
) -> dict[str, Any]:
    """`message_document` from a message's values and its blocks' values."""
    content: Any
    if content_form == Message.ContentForm.STRING and _is_plain_text(blocks):
        content = blocks[0][1]
    else:
        content = [block_mapping(*block) for block in blocks]
    return ordered_mapping({"role": role, "content": content}, extra, key_order)


def _is_plain_text(blocks: list[BlockValues]) -> bool:
    if len(blocks) != 1:
        return False
    block_type, _, bare, extra, _ = blocks[0]
    return block_type == "text" and not extra and not bare


def case_document(case: Case) -> dict[str, Any]:
    """A case as written in YAML. Uses prefetched `messages` and their `blocks` when present."""
    inputs: list[dict[str, Any]] = []
    expected: list[dict[str, Any]] = []
    for message in case.messages.all():
        target = inputs if message.section == Message.Section.INPUT else expected
        target.append(message_document(message, message.blocks.all()))
    return case_mapping(
        case.case_id,
        case.conversation_id,
        case.outcome,
        case.execution,
        case.extra,
        case.key_order,
        inputs,
        expected,
    )


def case_mapping(
    case_id: str,
    conversation_id: str | None,
    outcome: str,
    execution: Any,
    extra: dict[str, Any],
    key_order: list[str],
    inputs: list[dict[str, Any]],
    expected: list[dict[str, Any]],
) -> dict[str, Any]:
    """`case_document` from a case's values and its messages' mappings."""
    known = {
        "id": case_id,
        "conversation_id": conversation_id,
        "outcome": outcome,
        "input_messages": inputs,
        "expected_messages": expected if expected or "expected_messages" in key_order else None,
        "execution": execution,
    }
    return ordered_mapping(known, extra, key_order)


def suite_header(suite: Suite) -> tuple[dict[str, Any], dict[str, Any]]:
    """The top-level keys of a suite's file that come before and after `evalcases`."""
    known: dict[str, Any] = {
        "$schema": EVAL_SCHEMA,
        "description": suite.description,
        "dataset": suite.dataset,
        "target": suite.target,
        "execution": suite.execution,
        "evalcases": [],
    }
    whole = ordered_mapping(known, suite.extra, suite.key_order)
    keys = list(whole)
    split = keys.index("evalcases")
    before = {key: whole[key] for key in keys[:split]}
    after = {key: whole[key] for key in keys[split + 1 :]}
    return before, after


def suite_document(suite: Suite, cases: Iterable[Case]) -> dict[str, Any]:
    """A whole suite as one mapping (for small suites; export streams instead)."""
    before, after = suite_header(suite)
    return {**before, "evalcases": [case_document(case) for case in cases], **after}


def case_row(data: dict[str, Any], position: int) -> Case:
    """An unsaved Case row for a validated YAML case mapping (messages are separate rows)."""
    extra, key_order = split_mapping(data, CASE_KEYS)
    return Case(
        position=position,
        case_id=data["id"],
        conversation_id=data.get("conversation_id"),
        outcome=data["outcome"],
        execution=data.get("execution"),
        extra=extra,
        key_order=key_order,
    )


def suite_row(data: dict[str, Any], path: str) -> Suite:
    """An unsaved Suite row for a validated eval file mapping (cases are separate rows)."""
    extra, key_order = split_mapping(data, FILE_KEYS)
    return Suite(
        path=path,
        description=data.get("description"),
        dataset=data.get("dataset"),
        target=data.get("target"),
        execution=data.get("execution"),
        extra=extra,
        key_order=key_order,
    )


def store_messages(cases: Iterable[tuple[Case, dict[str, Any]]]) -> None:
    """Insert the messages and blocks of saved cases, from their validated YAML mappings.

    Rows go in with `insert_rows` (an import writes hundreds of thousands of them); the new
    messages' keys are then read back, to point their blocks at them.
    """
    message_rows: list[tuple[Any, ...]] = []
    blocks_by_message: dict[tuple[int, str, int], list[tuple[Any, ...]]] = {}
    case_pks: list[int] = []
    for case, document in cases:
        case_pks.append(case.pk)
        for section, key in (("input", "input_messages"), ("expected", "expected_messages")):
            for position, data in enumerate(document.get(key) or []):
                message_rows.append((case.pk, section, position, *_message_values(data)))
                blocks_by_message[case.pk, section, position] = _block_values(data["content"])
    insert_rows(Message, MESSAGE_COLUMNS, message_rows)
    block_rows: list[tuple[Any, ...]] = []
    for start in range(0, len(case_pks), _READ_BACK_CHUNK):
        stored = Message.objects.filter(case_id__in=case_pks[start : start + _READ_BACK_CHUNK])
        for pk, case_pk, section, position in stored.values_list(
            "pk", "case_id", "section", "position"
        ):
            blocks = blocks_by_message[case_pk, section, position]
            block_rows.extend((pk, *values) for values in blocks)
    insert_rows(ContentBlock, BLOCK_COLUMNS, block_rows)


MESSAGE_COLUMNS = ("case", "section", "position", "role", "content_form", "extra", "key_order")
BLOCK_COLUMNS = ("message", "position", "type", "value", "bare", "extra", "key_order")
_READ_BACK_CHUNK = 500  # cases per query when reading back new messages' keys


def _message_values(data: dict[str, Any]) -> tuple[Any, ...]:
    """role, content_form, extra, key_order (as stored) of a validated YAML message."""
    extra, key_order = split_mapping(data, MESSAGE_KEYS)
    string = isinstance(data["content"], str)
    form = Message.ContentForm.STRING if string else Message.ContentForm.LIST
    return data["role"], form, json_text(extra), key_order_text(key_order)


def _block_values(content: Any) -> list[tuple[Any, ...]]:
    """position, type, value, bare, extra, key_order (as stored) of each block of a message."""
    if isinstance(content, str):
        return [(0, "text", content, False, "{}", "[]")]
    rows: list[tuple[Any, ...]] = []
    for position, item in enumerate(content):
        if isinstance(item, str):
            rows.append((position, "text", item, True, "{}", "[]"))
        else:
            extra, key_order = split_mapping(item, BLOCK_KEYS)
            extra_text, order_text = json_text(extra), key_order_text(key_order)
            rows.append((position, item["type"], item["value"], False, extra_text, order_text))
    return rows

"""Stored rows to eval YAML mappings and back, keeping every key and its original order."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import Prefetch, QuerySet

from ..formatting.key_order import ordered_mapping, split_mapping
from ..formatting.schema import EVAL_SCHEMA
from ..models import Case, ContentBlock, Message, Suite

FILE_KEYS = ("$schema", "description", "dataset", "target", "execution", "evalcases")
CASE_KEYS = ("id", "conversation_id", "outcome", "input_messages", "expected_messages", "execution")
MESSAGE_KEYS = ("role", "content")
BLOCK_KEYS = ("type", "value")


def with_conversation(cases: QuerySet[Case]) -> QuerySet[Case]:
    """`cases` with their messages and blocks prefetched in order (three queries in all)."""
    blocks = Prefetch("blocks", queryset=ContentBlock.objects.order_by("position"))
    messages = Message.objects.order_by("section", "position").prefetch_related(blocks)
    return cases.prefetch_related(Prefetch("messages", queryset=messages))


def block_document(block: ContentBlock) -> Any:
    """A content block as written in YAML: a mapping, or a bare string."""
    if block.bare:
        return block.value
    return ordered_mapping({"type": block.type, "value": block.value}, block.extra, block.key_order)


def message_document(message: Message, blocks: Iterable[ContentBlock]) -> dict[str, Any]:
    """A message as written in YAML, its content a string where it was one."""
    blocks = list(blocks)
    content: Any
    if message.content_form == Message.ContentForm.STRING and _is_plain_text(blocks):
        content = blocks[0].value
    else:
        content = [block_document(block) for block in blocks]
    return ordered_mapping(
        {"role": message.role, "content": content}, message.extra, message.key_order
    )


def _is_plain_text(blocks: list[ContentBlock]) -> bool:
    return (
        len(blocks) == 1 and blocks[0].type == "text" and not blocks[0].extra and not blocks[0].bare
    )


def case_document(case: Case) -> dict[str, Any]:
    """A case as written in YAML. Uses prefetched `messages` and their `blocks` when present."""
    inputs: list[dict[str, Any]] = []
    expected: list[dict[str, Any]] = []
    for message in case.messages.all():
        target = inputs if message.section == Message.Section.INPUT else expected
        target.append(message_document(message, message.blocks.all()))
    known = {
        "id": case.case_id,
        "conversation_id": case.conversation_id,
        "outcome": case.outcome,
        "input_messages": inputs,
        "expected_messages": expected
        if expected or "expected_messages" in case.key_order
        else None,
        "execution": case.execution,
    }
    return ordered_mapping(known, case.extra, case.key_order)


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


def rows_from_messages(
    messages: list[dict[str, Any]], section: str
) -> Iterator[tuple[Message, list[ContentBlock]]]:
    """Unsaved Message and ContentBlock rows for a validated list of YAML messages."""
    for position, data in enumerate(messages):
        extra, key_order = split_mapping(data, MESSAGE_KEYS)
        content = data["content"]
        message = Message(
            section=section,
            position=position,
            role=data["role"],
            content_form=Message.ContentForm.STRING
            if isinstance(content, str)
            else Message.ContentForm.LIST,
            extra=extra,
            key_order=key_order,
        )
        if isinstance(content, str):
            blocks = [ContentBlock(position=0, type="text", value=content)]
        else:
            blocks = [_block_row(index, item) for index, item in enumerate(content)]
        yield message, blocks


def _block_row(position: int, item: Any) -> ContentBlock:
    if isinstance(item, str):
        return ContentBlock(position=position, type="text", value=item, bare=True)
    extra, key_order = split_mapping(item, BLOCK_KEYS)
    return ContentBlock(
        position=position, type=item["type"], value=item["value"], extra=extra, key_order=key_order
    )


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
    """Insert the messages and blocks of saved cases, from their validated YAML mappings."""
    messages: list[Message] = []
    blocks_per_message: list[list[ContentBlock]] = []
    for case, document in cases:
        for section, key in (("input", "input_messages"), ("expected", "expected_messages")):
            for message, blocks in rows_from_messages(document.get(key) or [], section):
                message.case = case
                messages.append(message)
                blocks_per_message.append(blocks)
    Message.objects.bulk_create(messages, batch_size=2000)
    all_blocks: list[ContentBlock] = []
    for message, blocks in zip(messages, blocks_per_message, strict=True):
        for block in blocks:
            block.message = message
        all_blocks.extend(blocks)
    ContentBlock.objects.bulk_create(all_blocks, batch_size=2000)

"""The editor's unsaved state of a case: parsed from the form, edited, turned into a case mapping.

A draft is the case's YAML mapping in a form the editor can show and change. Unknown keys and
key order ride along in hidden `-meta` fields, so editing a case never drops what it had; the
mapping a draft produces goes through the same validation and storage as an imported file.
Field names: `input-3-role`, `input-3-block-0-value`, `evaluator-1-model`, …
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .formatting.key_order import ordered_mapping, split_mapping
from .formatting.schema import ROLES

SECTIONS = ("input", "expected")
SECTION_KEYS = {"input": "input_messages", "expected": "expected_messages"}
EVALUATOR_TYPES = ("llm_judge", "code")
EVALUATOR_FIELDS = ("name", "type", "prompt", "model", "script", "cwd")
# Bounds on what one form may hold, so a hostile request cannot make the server loop for long.
MAX_TURNS = 1000
MAX_BLOCKS = 200
MAX_EVALUATORS = 50


class DraftFormError(ValueError):
    """The posted form is not one the editor produced (a field missing or malformed)."""


@dataclass
class BlockDraft:
    """One content block; `bare` marks a bare string in a content list."""

    type: str = "text"
    value: str = ""
    bare: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    key_order: list[str] = field(default_factory=list)

    def document(self) -> Any:
        """The block as YAML has it."""
        if self.bare and self.type == "text" and not self.extra:
            return self.value
        return ordered_mapping({"type": self.type, "value": self.value}, self.extra, self.key_order)


@dataclass
class TurnDraft:
    """One message; a `string` content form is kept while it holds a single plain text block."""

    role: str = "user"
    blocks: list[BlockDraft] = field(default_factory=lambda: [BlockDraft()])
    content_form: str = "string"
    extra: dict[str, Any] = field(default_factory=dict)
    key_order: list[str] = field(default_factory=list)

    def document(self) -> dict[str, Any]:
        """The message as YAML has it."""
        content: Any
        plain = len(self.blocks) == 1 and self.blocks[0].type == "text" and not self.blocks[0].extra
        if self.content_form == "string" and plain:
            content = self.blocks[0].value
        else:
            content = [block.document() for block in self.blocks]
        return ordered_mapping({"role": self.role, "content": content}, self.extra, self.key_order)


@dataclass
class EvaluatorDraft:
    """An evaluator of the case: `llm_judge` (prompt, model) or `code` (script, cwd)."""

    type: str = "llm_judge"
    name: str = ""
    prompt: str = ""
    model: str = ""
    script: str = ""
    cwd: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    key_order: list[str] = field(default_factory=list)

    def document(self) -> dict[str, Any]:
        """The evaluator as YAML has it; empty fields are left out."""
        known = {name: getattr(self, name) for name in EVALUATOR_FIELDS}
        return _compose(known, self.extra, self.key_order)


@dataclass
class CaseDraft:
    """A whole case as the editor holds it."""

    case_id: str = ""
    conversation_id: str = ""
    outcome: str = ""
    input_turns: list[TurnDraft] = field(default_factory=list)
    expected_turns: list[TurnDraft] = field(default_factory=list)
    target: str = ""
    evaluators: list[EvaluatorDraft] = field(default_factory=list)
    has_execution: bool = False
    execution_extra: dict[str, Any] = field(default_factory=dict)
    execution_key_order: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    key_order: list[str] = field(default_factory=list)
    version: int = 0

    def turns(self, section: str) -> list[TurnDraft]:
        """The input or the expected turns."""
        if section not in SECTIONS:
            raise ValueError(f"unknown section {section!r}")
        return self.input_turns if section == "input" else self.expected_turns

    def document(self) -> dict[str, Any]:
        """The case mapping, as an eval file would hold it."""
        known: dict[str, Any] = {
            "id": self.case_id,
            "conversation_id": self.conversation_id,
            "outcome": self.outcome,
            "input_messages": [turn.document() for turn in self.input_turns],
            "expected_messages": [turn.document() for turn in self.expected_turns] or None,
            "execution": self._execution_document(),
        }
        if "expected_messages" in self.key_order and known["expected_messages"] is None:
            known["expected_messages"] = []
        return _compose(known, self.extra, self.key_order, keep=("id", "outcome"))

    def _execution_document(self) -> dict[str, Any] | None:
        evaluators = [evaluator.document() for evaluator in self.evaluators]
        known: dict[str, Any] = {"target": self.target, "evaluators": evaluators or None}
        if "evaluators" in self.execution_key_order and not evaluators:
            known["evaluators"] = []
        execution = _compose(known, self.execution_extra, self.execution_key_order)
        return execution if execution or self.has_execution else None

    @classmethod
    def from_document(cls, data: Mapping[str, Any], version: int = 0) -> CaseDraft:
        """A draft of a validated case mapping (as stored or as pasted)."""
        extra, key_order = split_mapping(dict(data), CASE_KEYS)
        execution = data.get("execution")
        execution = execution if isinstance(execution, dict) else {}
        execution_extra, execution_order = split_mapping(execution, ("target", "evaluators"))
        return cls(
            case_id=data["id"],
            conversation_id=data.get("conversation_id") or "",
            outcome=data["outcome"],
            input_turns=[_turn_from_document(m) for m in data["input_messages"]],
            expected_turns=[_turn_from_document(m) for m in data.get("expected_messages") or []],
            target=execution.get("target") or "",
            evaluators=[_evaluator_from_document(e) for e in execution.get("evaluators") or []],
            has_execution="execution" in data,
            execution_extra=execution_extra,
            execution_key_order=execution_order,
            extra=extra,
            key_order=key_order,
            version=version,
        )

    @classmethod
    def from_form(cls, form: Mapping[str, str]) -> CaseDraft:
        """Parse the editor's form; raise DraftFormError if it is not the editor's."""
        meta = _meta(form, "case-meta")
        execution_meta = _meta(form, "execution-meta")
        return cls(
            case_id=form.get("id", "").strip(),
            conversation_id=form.get("conversation_id", "").strip(),
            outcome=form.get("outcome", ""),
            input_turns=_turns_from_form(form, "input"),
            expected_turns=_turns_from_form(form, "expected"),
            target=form.get("target", "").strip(),
            evaluators=[
                _evaluator_from_form(form, f"evaluator-{index}")
                for index in range(_count(form, "evaluator-count", MAX_EVALUATORS))
            ],
            has_execution=bool(execution_meta.get("present")),
            execution_extra=execution_meta["extra"],
            execution_key_order=execution_meta["key_order"],
            extra=meta["extra"],
            key_order=meta["key_order"],
            version=_integer(form.get("version", "0"), "version"),
        )

    def apply(self, action: str) -> str | None:
        """Apply one structural edit (`add-turn:input:user`, `move-block:input:2:0:up`, …).

        Returns the id of the form control that should get the keyboard focus afterwards.
        """
        verb, *args = action.split(":")
        handler = _ACTIONS.get(verb)
        if handler is None:
            raise DraftFormError(f"unknown editor action {action!r}")
        try:
            return handler(self, *args)
        except (TypeError, ValueError, IndexError) as error:
            raise DraftFormError(f"bad editor action {action!r}") from error


CASE_KEYS = ("id", "conversation_id", "outcome", "input_messages", "expected_messages", "execution")


def _compose(
    known: dict[str, Any], extra: dict[str, Any], key_order: list[str], keep: tuple[str, ...] = ()
) -> dict[str, Any]:
    # A field the editor shows empty is left out of the mapping (and out of the key order).
    present = {k: v for k, v in known.items() if k in keep or v not in (None, "")}
    order = [key for key in key_order if key in present or key in extra]
    return ordered_mapping(present, extra, order)


def _turn_from_document(data: Mapping[str, Any]) -> TurnDraft:
    extra, key_order = split_mapping(dict(data), ("role", "content"))
    content = data["content"]
    if isinstance(content, str):
        return TurnDraft(data["role"], [BlockDraft(value=content)], "string", extra, key_order)
    blocks = []
    for item in content:
        if isinstance(item, str):
            blocks.append(BlockDraft(value=item, bare=True))
        else:
            block_extra, block_order = split_mapping(dict(item), ("type", "value"))
            blocks.append(BlockDraft(item["type"], item["value"], False, block_extra, block_order))
    return TurnDraft(data["role"], blocks, "list", extra, key_order)


def _evaluator_from_document(data: Mapping[str, Any]) -> EvaluatorDraft:
    # Values of an unexpected type stay in `extra`, untouched, rather than being coerced.
    known = {k: v for k, v in data.items() if k in EVALUATOR_FIELDS and isinstance(v, str)}
    extra = {k: v for k, v in data.items() if k not in known}
    return EvaluatorDraft(**known, extra=extra, key_order=list(data))


def _turns_from_form(form: Mapping[str, str], section: str) -> list[TurnDraft]:
    turns = []
    for index in range(_count(form, f"{section}-count", MAX_TURNS)):
        prefix = f"{section}-{index}"
        meta = _meta(form, f"{prefix}-meta")
        role = form.get(f"{prefix}-role", "")
        if role not in ROLES:
            raise DraftFormError(f"{prefix}-role: unknown role {role!r}")
        blocks = []
        for block_index in range(_count(form, f"{prefix}-block-count", MAX_BLOCKS)):
            block_prefix = f"{prefix}-block-{block_index}"
            block_meta = _meta(form, f"{block_prefix}-meta")
            blocks.append(
                BlockDraft(
                    type=form.get(f"{block_prefix}-type", "text") or "text",
                    value=_text(form.get(f"{block_prefix}-value", "")),
                    bare=bool(block_meta.get("bare")),
                    extra=block_meta["extra"],
                    key_order=block_meta["key_order"],
                )
            )
        content_form = "string" if meta.get("content_form", "string") == "string" else "list"
        turns.append(TurnDraft(role, blocks, content_form, meta["extra"], meta["key_order"]))
    return turns


def _evaluator_from_form(form: Mapping[str, str], prefix: str) -> EvaluatorDraft:
    meta = _meta(form, f"{prefix}-meta")
    values = {name: form.get(f"{prefix}-{name}", "").strip() for name in EVALUATOR_FIELDS}
    # An inline judge template is text: its line breaks and blank lines are part of it.
    prompt = _text(form.get(f"{prefix}-prompt", ""))
    values["prompt"] = prompt if "\n" in prompt else prompt.strip()
    return EvaluatorDraft(**values, extra=meta["extra"], key_order=meta["key_order"])


def _text(value: str) -> str:
    # Browsers submit text areas with CRLF line ends; the case keeps what the user typed.
    return value.replace("\r\n", "\n")


def _count(form: Mapping[str, str], name: str, limit: int) -> int:
    count = _integer(form.get(name, "0"), name)
    if not 0 <= count <= limit:
        raise DraftFormError(f"{name}: {count} is outside 0..{limit}")
    return count


def _integer(value: str, name: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise DraftFormError(f"{name}: {value!r} is not a number") from None


def _meta(form: Mapping[str, str], name: str) -> dict[str, Any]:
    raw = form.get(name, "")
    try:
        meta = json.loads(raw) if raw else {}
    except json.JSONDecodeError:
        raise DraftFormError(f"{name}: not JSON") from None
    if not isinstance(meta, dict):
        raise DraftFormError(f"{name}: not a JSON object")
    extra = meta.setdefault("extra", {})
    key_order = meta.setdefault("key_order", [])
    if not isinstance(extra, dict) or not (
        isinstance(key_order, list) and all(isinstance(key, str) for key in key_order)
    ):
        raise DraftFormError(f"{name}: malformed")
    return meta


def meta_json(item: BlockDraft | TurnDraft | EvaluatorDraft | CaseDraft) -> str:
    """The hidden `-meta` value that carries an item's unknown keys through the form.

    Empty for a turn or block (nearly all of them) that has only its own keys in the usual
    order, which is what an empty value reads as: the preview posts the whole form on every
    pause in typing.
    """
    if _plain(item):
        return ""
    meta: dict[str, Any] = {"extra": item.extra, "key_order": item.key_order}
    if isinstance(item, BlockDraft) and item.bare:
        meta["bare"] = True
    if isinstance(item, TurnDraft):
        meta["content_form"] = item.content_form
    return json.dumps(meta, ensure_ascii=False, separators=(",", ":"))


def _plain(item: BlockDraft | TurnDraft | EvaluatorDraft | CaseDraft) -> bool:
    if isinstance(item, TurnDraft):
        usual = item.content_form == "string" and item.key_order in ([], ["role", "content"])
        return usual and not item.extra
    if isinstance(item, BlockDraft):
        return not item.bare and not item.extra and item.key_order in ([], ["type", "value"])
    return False


def execution_meta_json(draft: CaseDraft) -> str:
    """The hidden `execution-meta` value: whether `execution:` exists, and its other keys."""
    meta = {
        "present": draft.has_execution,
        "extra": draft.execution_extra,
        "key_order": draft.execution_key_order,
    }
    return json.dumps(meta, ensure_ascii=False, separators=(",", ":"))


# Structural edits. Each returns the id of the control to focus afterwards.


def _add_turn(draft: CaseDraft, section: str, role: str) -> str:
    if section not in SECTIONS or role not in ROLES:
        raise ValueError(section)
    turns = draft.turns(section)
    turns.append(TurnDraft(role=role))
    return f"{section}-{len(turns) - 1}-block-0-value"


def _delete_turn(draft: CaseDraft, section: str, index: str) -> str | None:
    turns = draft.turns(section)
    del turns[_index(index, turns)]
    return None


def _move_turn(draft: CaseDraft, section: str, index: str, direction: str) -> str:
    turns = draft.turns(section)
    target = _swap(turns, _index(index, turns), direction)
    return _move_focus(f"{section}-{target}", target, len(turns), direction)


def _add_block(draft: CaseDraft, section: str, index: str, block_type: str) -> str:
    if block_type not in ("text", "file"):
        raise ValueError(block_type)
    turn = _turn(draft, section, index)
    turn.content_form = "list"
    turn.blocks.append(BlockDraft(type=block_type))
    return f"{section}-{index}-block-{len(turn.blocks) - 1}-value"


def _delete_block(draft: CaseDraft, section: str, index: str, block: str) -> str | None:
    turn = _turn(draft, section, index)
    del turn.blocks[_index(block, turn.blocks)]
    turn.content_form = "list"
    return None


def _move_block(draft: CaseDraft, section: str, index: str, block: str, direction: str) -> str:
    turn = _turn(draft, section, index)
    target = _swap(turn.blocks, _index(block, turn.blocks), direction)
    turn.content_form = "list"
    return _move_focus(f"{section}-{index}-block-{target}", target, len(turn.blocks), direction)


def _add_evaluator(draft: CaseDraft, evaluator_type: str) -> str:
    if evaluator_type not in EVALUATOR_TYPES:
        raise ValueError(evaluator_type)
    draft.evaluators.append(EvaluatorDraft(type=evaluator_type))
    return f"evaluator-{len(draft.evaluators) - 1}-name"


def _delete_evaluator(draft: CaseDraft, index: str) -> str | None:
    del draft.evaluators[_index(index, draft.evaluators)]
    return None


def _turn(draft: CaseDraft, section: str, index: str) -> TurnDraft:
    turns = draft.turns(section)
    return turns[_index(index, turns)]


def _index(value: str, items: list[Any]) -> int:
    index = int(value)
    if not 0 <= index < len(items):
        raise IndexError(index)
    return index


def _move_focus(prefix: str, position: int, count: int, direction: str) -> str:
    """The moved item's button to focus: the same direction again, unless it reached the end
    (that button is then disabled, and a disabled button cannot hold the focus)."""
    at_end = position == (0 if direction == "up" else count - 1)
    if at_end and count > 1:
        direction = "down" if direction == "up" else "up"
    return f"{prefix}-move-{direction}"


def _swap(items: list[Any], position: int, direction: str) -> int:
    """Move the item one place up or down (staying put at either end); its new position."""
    if direction not in ("up", "down"):
        raise ValueError(direction)
    target = position - 1 if direction == "up" else position + 1
    if not 0 <= target < len(items):
        return position
    items[position], items[target] = items[target], items[position]
    return target


_ACTIONS: dict[str, Any] = {
    "add-turn": _add_turn,
    "delete-turn": _delete_turn,
    "move-turn": _move_turn,
    "add-block": _add_block,
    "delete-block": _delete_block,
    "move-block": _move_block,
    "add-evaluator": _add_evaluator,
    "delete-evaluator": _delete_evaluator,
}

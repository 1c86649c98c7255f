"""The editor's unsaved state of a case: parsed from the form, edited, turned into a case mapping.

A draft is a case taken apart by `eval_files.case_parts` (the one mapping between a case and
its document) in a form the editor can show and change: turns of blocks, tool calls, content
written as a mapping, evaluators. What the editor does not show (the rest of the case, unknown
keys, the spelling of each part) rides along in hidden `-meta` fields, so opening and saving a
case of any period without touching it changes nothing. The mapping a draft produces goes
through the same validation and storage as an imported file.
Field names: `input-3-role`, `input-3-block-0-value`, `expected-0-tool-1-input`, …
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from ..eval_files.case_parts import (
    SECTIONS,
    CaseParts,
    Spelling,
    join_case,
    new_case_spelling,
    spell_absent_parts,
    split_case,
)
from ..eval_files.dialects import ROLES
from ..eval_files.json_text import encode_json, has_typed_keys
from ..eval_files.key_order import ordered_mapping, split_mapping
from ..eval_files.parts_2026 import join_test, split_test
from ..eval_files.yaml_dumper import dump_yaml
from .drafts_2026 import TEST_ACTIONS, Parts2026Draft
from .field_labels import labelled_problems
from .form_fields import (
    DraftFormError,
    form_count,
    form_integer,
    form_text,
    item_index,
    item_meta,
    json_text,
    json_value,
    move_focus,
    swap,
)

EVALUATOR_TYPES = ("llm_judge", "code")
# The evaluators that run a script: `code` and its later 2025 spelling `code_judge`.
CODE_EVALUATOR_TYPES = ("code", "code_judge")
EVALUATOR_FIELDS = ("name", "type", "prompt", "model", "script", "cwd")
CONTENT_FORMS = ("string", "list", "mapping", "absent", "raw")
# Bounds on what one form may hold, so a hostile request cannot make the server loop for long.
MAX_TURNS = 1000
MAX_BLOCKS = 200
MAX_EVALUATORS = 50
MAX_TOOL_CALLS = 50


@dataclass
class BlockDraft:
    """One content block. Text and file blocks with a text value are edited; any other block
    (another type, or no text value) is kept whole in `raw`, shown read-only, movable."""

    type: str = "text"
    value: str = ""
    bare: bool = False
    extra: dict[Any, Any] = field(default_factory=dict)
    key_order: list[Any] = field(default_factory=list)
    raw: Any = None

    @property
    def editable(self) -> bool:
        """Whether the editor shows a text box for the block's value."""
        return self.raw is None

    def document(self) -> Any:
        """The block as YAML has it."""
        if self.raw is not None:
            return self.raw
        if self.bare and self.type == "text" and not self.extra:
            return self.value
        return ordered_mapping({"type": self.type, "value": self.value}, self.extra, self.key_order)

    @classmethod
    def from_document(cls, item: Any) -> BlockDraft:
        """A draft of one item of a content list."""
        if isinstance(item, str):
            return cls(value=item, bare=True)
        if (
            isinstance(item, dict)
            and item.get("type") in ("text", "file")
            and isinstance(item.get("value"), str)
        ):
            extra, key_order = split_mapping(item, ("type", "value"))
            return cls(item["type"], item["value"], False, extra, key_order)
        return cls(type=_block_type(item), raw=item)


@dataclass
class ToolCallDraft:
    """A tool call of an expected message (`{tool, input, output}`); input and output are edited
    as JSON text."""

    tool: str = ""
    input_text: str = ""
    output_text: str = ""
    extra: dict[Any, Any] = field(default_factory=dict)
    key_order: list[Any] = field(default_factory=list)
    # An input or output whose mappings have keys JSON turns into text (`{0: …}`), as read:
    # written back as it was while its JSON text is unchanged.
    originals: dict[str, Any] = field(default_factory=dict)

    def document(self, problems: list[tuple[str, str]], prefix: str = "tool") -> dict[Any, Any]:
        """The tool call as YAML has it; JSON that does not parse is added to `problems`."""
        known: dict[str, Any] = {"tool": self.tool or None}
        for name, text in (("input", self.input_text), ("output", self.output_text)):
            known[name] = json_value(text, f"{prefix}-{name}", problems, self.originals.get(name))
        return ordered_mapping(known, self.extra, self.key_order)

    @classmethod
    def from_document(cls, data: dict[Any, Any]) -> ToolCallDraft:
        """A draft of one tool call mapping."""
        known = [key for key in ("tool", "input", "output") if key in data]
        if "tool" in data and not isinstance(data["tool"], str):
            known.remove("tool")
        extra, key_order = split_mapping(data, tuple(known))
        return cls(
            tool=data.get("tool", "") if "tool" in known else "",
            input_text=json_text(data["input"]) if "input" in known else "",
            output_text=json_text(data["output"]) if "output" in known else "",
            extra=extra,
            key_order=key_order,
            originals={
                name: data[name]
                for name in ("input", "output")
                if name in known and has_typed_keys(data[name])
            },
        )


@dataclass
class TurnDraft:
    """One message. Its content is a string (one text block), a list of blocks, a mapping
    (edited as JSON), absent (a message of tool calls), or kept whole (`raw`)."""

    role: str = "user"
    blocks: list[BlockDraft] = field(default_factory=lambda: [BlockDraft()])
    content_form: str = "string"
    mapping_text: str = ""
    tool_calls: list[ToolCallDraft] | None = None
    extra: dict[Any, Any] = field(default_factory=dict)
    key_order: list[Any] = field(default_factory=list)
    raw_content: Any = None
    # Mapping content with keys JSON turns into text (`{1: …}`), as read: written back as it
    # was while its JSON text is unchanged.
    original_mapping: Any = None

    def document(
        self, problems: list[tuple[str, str]] | None = None, prefix: str = "turn"
    ) -> dict[Any, Any]:
        """The message as YAML has it. JSON that does not parse is added to `problems`, or
        raises DraftValueError when no list is given."""
        own_problems: list[tuple[str, str]] = [] if problems is None else problems
        document = self._document(own_problems, prefix)
        if problems is None and own_problems:
            raise DraftValueError(own_problems)
        return document

    def _document(self, problems: list[tuple[str, str]], prefix: str) -> dict[Any, Any]:
        content: Any = None
        if self.content_form == "mapping":
            content = json_value(
                self.mapping_text, f"{prefix}-mapping", problems, self.original_mapping
            )
        elif self.content_form == "raw":
            content = self.raw_content
        elif self.content_form != "absent":
            plain = (
                len(self.blocks) == 1
                and self.blocks[0].editable
                and self.blocks[0].type == "text"
                and not self.blocks[0].extra
            )
            if self.content_form == "string" and plain:
                content = self.blocks[0].value
            else:
                content = [block.document() for block in self.blocks]
        known: dict[str, Any] = {"role": self.role}
        if self.content_form != "absent":
            known["content"] = content
        if self.tool_calls is not None:
            known["tool_calls"] = [
                call.document(problems, f"{prefix}-tool-{index}")
                for index, call in enumerate(self.tool_calls)
            ]
        return ordered_mapping(known, self.extra, self.key_order)

    @classmethod
    def from_document(cls, data: dict[Any, Any]) -> TurnDraft:
        """A draft of a message mapping (its role was checked when the case was read)."""
        content = data.get("content")
        tool_calls = data.get("tool_calls")
        editable_calls = isinstance(tool_calls, list) and all(
            isinstance(call, dict) for call in tool_calls
        )
        known = ("role", "content", "tool_calls") if editable_calls else ("role", "content")
        extra, key_order = split_mapping(data, known)
        turn = cls(
            role=data["role"],
            extra=extra,
            key_order=key_order,
            tool_calls=[ToolCallDraft.from_document(call) for call in tool_calls]
            if editable_calls and isinstance(tool_calls, list)
            else None,
        )
        if "content" not in data:
            turn.content_form, turn.blocks = "absent", []
        elif isinstance(content, str):
            turn.blocks = [BlockDraft(value=content)]
        elif isinstance(content, list):
            turn.content_form = "list"
            turn.blocks = [BlockDraft.from_document(item) for item in content]
        elif isinstance(content, dict):
            turn.content_form, turn.blocks = "mapping", []
            turn.mapping_text = json_text(content)
            if has_typed_keys(content):
                turn.original_mapping = content
        else:
            turn.content_form, turn.blocks, turn.raw_content = "raw", [], content
        return turn


@dataclass
class EvaluatorDraft:
    """An evaluator of the case: `llm_judge` (prompt, model) or `code`/`code_judge` (script,
    cwd)."""

    type: str = "llm_judge"
    name: str = ""
    prompt: str = ""
    model: str = ""
    script: str = ""
    cwd: str = ""
    extra: dict[Any, Any] = field(default_factory=dict)
    key_order: list[Any] = field(default_factory=list)
    # The mapping it was read from: written back as it was while no field is changed.
    original: Any = None

    @property
    def runs_script(self) -> bool:
        """Whether the form shows its script and working folder (else a judge's fields)."""
        return self.type in CODE_EVALUATOR_TYPES

    @property
    def kept_fields(self) -> str:
        """Its fields the form does not edit, as YAML; they are written back as they are."""
        return dump_yaml(self.extra).rstrip("\n") if self.extra else ""

    def document(self) -> Any:
        """The evaluator as YAML has it; empty fields are left out."""
        if self.original is not None and _same_fields(
            _as_the_form_reads(EvaluatorDraft.from_document(self.original)), self
        ):
            return self.original
        known = {name: getattr(self, name) for name in EVALUATOR_FIELDS}
        present = {k: v for k, v in known.items() if v not in (None, "")}
        order = [key for key in self.key_order if key in present or key in self.extra]
        return ordered_mapping(present, self.extra, order)

    @classmethod
    def from_document(cls, data: Any) -> EvaluatorDraft:
        """A draft of an evaluator mapping; values of other types stay in `extra`, untouched."""
        if not isinstance(data, dict):
            return cls(type="", original=data)
        # Only the fields the form shows for the evaluator's type come back from it; any other
        # (a judge's `script`) rides along with the unknown keys.
        shown = ("type", *_shown_fields(data.get("type")))
        known = {k: v for k, v in data.items() if k in shown and isinstance(v, str)}
        extra = {k: v for k, v in data.items() if k not in known}
        return cls(**known, extra=extra, key_order=list(data), original=data)


@dataclass
class CaseDraft:
    """A whole case as the editor holds it."""

    case_id: str = ""
    outcome: str = ""
    input_turns: list[TurnDraft] = field(default_factory=list)
    expected_turns: list[TurnDraft] = field(default_factory=list)
    target: str = ""
    evaluators: list[EvaluatorDraft] = field(default_factory=list)
    spelling: Spelling = field(default_factory=Spelling)
    skeleton: dict[Any, Any] = field(default_factory=dict)
    unread: tuple[str, ...] = ()
    # The outcome, target and evaluator list as read: written back while their fields are
    # unchanged (so `null`, a number or an empty list stays what it was).
    original_outcome: Any = None
    original_target: Any = None
    original_evaluators: list[Any] | None = None
    # Today's test: its variables, asserts and conversation turns.
    test: Parts2026Draft = field(default_factory=Parts2026Draft)
    version: int = 0

    def turns(self, section: str) -> list[TurnDraft]:
        """The input or the expected turns."""
        if section not in SECTIONS:
            raise ValueError(f"unknown section {section!r}")
        return self.input_turns if section == "input" else self.expected_turns

    def document(self, problems: list[tuple[str, str]] | None = None) -> dict[Any, Any]:
        """The case mapping, as an eval file would hold it.

        A field whose value does not parse (JSON, YAML, a number) raises DraftValueError; when
        a `problems` list is given it is added there instead and the mapping is built without
        that value, so the preview can show the rest (docs/user-guide.md, "The editor").
        """
        collect = problems is not None
        problems = [] if problems is None else problems
        inputs = [t.document(problems, f"input-{i}") for i, t in enumerate(self.input_turns)]
        expected = [
            t.document(problems, f"expected-{i}") for i, t in enumerate(self.expected_turns)
        ]
        evaluators: list[Any] | None = [evaluator.document() for evaluator in self.evaluators]
        if not evaluators and self.original_evaluators is None:
            evaluators = None
        skeleton = join_test(self.skeleton, self.spelling, self.test.parts(problems))
        if problems and not collect:
            raise DraftValueError(problems)
        parts = CaseParts(
            case_id=self.case_id,
            outcome=_unless_unchanged(self.outcome, self.original_outcome),
            input_messages=inputs,
            expected_messages=expected,
            target=_unless_unchanged(self.target, self.original_target),
            evaluators=evaluators,
            spelling=self.spelling,
            skeleton=skeleton,
            unread=self.unread,
        )
        document = join_case(parts)
        if not self.target and _shown(self.original_target):
            _drop_target(document, self.spelling)  # the Target box was emptied: no target
        return document

    def saved_document(self) -> dict[Any, Any]:
        """`document()` as Save writes it: a conversation turn left empty is refused, naming
        the turn, where the preview still shows it (docs/user-guide.md, "The editor for
        today's tests").

        Raises DraftValueError.
        """
        empty = self.test.empty_turns()
        if empty:
            raise DraftValueError(empty)
        return self.document()

    @classmethod
    def from_document(cls, data: dict[Any, Any], version: int = 0) -> CaseDraft:
        """A draft of a valid case mapping (as stored or as pasted)."""
        parts = split_case(data)
        return cls(
            case_id=parts.case_id,
            outcome=_shown(parts.outcome),
            input_turns=[TurnDraft.from_document(m) for m in parts.input_messages],
            expected_turns=[TurnDraft.from_document(m) for m in parts.expected_messages],
            target=_shown(parts.target),
            evaluators=[EvaluatorDraft.from_document(e) for e in parts.evaluators or []],
            spelling=parts.spelling,
            skeleton=parts.skeleton,
            unread=parts.unread,
            original_outcome=parts.outcome,
            original_target=parts.target,
            original_evaluators=parts.evaluators,
            test=Parts2026Draft.from_parts(split_test(parts.skeleton, parts.spelling)),
            version=version,
        )

    @classmethod
    def from_form(cls, form: Mapping[str, str]) -> CaseDraft:
        """Parse the editor's form; raise DraftFormError if it is not the editor's."""
        meta = item_meta(form, "case-meta")
        try:
            spelling = Spelling.from_json(meta.get("spelling", Spelling().as_json()))
        except ValueError as error:
            raise DraftFormError(f"case-meta: {error}") from None
        skeleton = meta.get("skeleton", {})
        unread = meta.get("unread", [])
        if not isinstance(skeleton, dict) or not isinstance(unread, list):
            raise DraftFormError("case-meta: malformed")
        evaluators = meta.get("evaluators")
        test = Parts2026Draft.from_form(form, split_test(skeleton, spelling))
        return cls(
            case_id=form.get("id", ""),
            outcome=form_text(form.get("outcome", "")),
            input_turns=_turns_from_form(form, "input"),
            expected_turns=_turns_from_form(form, "expected"),
            target=form.get("target", "").strip(),
            evaluators=[
                _evaluator_from_form(form, f"evaluator-{index}")
                for index in range(form_count(form, "evaluator-count", MAX_EVALUATORS))
            ],
            spelling=spelling,
            skeleton=skeleton,
            unread=tuple(str(part) for part in unread),
            original_outcome=meta.get("outcome"),
            original_target=meta.get("target"),
            original_evaluators=evaluators if isinstance(evaluators, list) else None,
            test=test,
            version=form_integer(form.get("version", "0"), "version"),
        )

    def fit_suite(self, cases_key: str | None, *, today: bool, prompts: bool) -> None:
        """Fit a draft of a stored case to its suite before the editor first shows it: parts
        the case lacks go where new cases of its file put them, and a case of an older period
        is offered no variables, asserts or turns it does not have (`today`: the suite is
        formatted by the AgentV 2026 profile)."""
        like = new_case_spelling(cases_key, prompts=prompts)
        self.spelling = spell_absent_parts(self.spelling, like)
        if not today:
            self.test.offer_only_present()

    def apply(self, action: str) -> str | None:
        """Apply one structural edit (`add-turn:input:user`, `move-block:input:2:0:up`, …).

        Returns the id of the form control that should get the keyboard focus afterwards.
        """
        verb, *args = action.split(":")
        handler = _ACTIONS.get(verb)
        parts_handler = TEST_ACTIONS.get(verb)
        if handler is None and parts_handler is None:
            raise DraftFormError(f"unknown editor action {action!r}")
        try:
            if handler is not None:
                return handler(self, *args)
            assert parts_handler is not None
            return parts_handler(self.test, *args)
        except (TypeError, ValueError, IndexError) as error:
            raise DraftFormError(f"bad editor action {action!r}") from error


class DraftValueError(ValueError):
    """Fields of the form hold values that cannot be saved (JSON that does not parse); each
    problem is (field name, message). Its text names the fields as the page shows them."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        super().__init__("; ".join(labelled_problems(problems)))
        self.problems = problems


def _shown_fields(evaluator_type: Any) -> tuple[str, ...]:
    """The fields the editor shows for an evaluator of this type (the template's two forms)."""
    if evaluator_type in CODE_EVALUATOR_TYPES:
        return ("name", "script", "cwd")
    return ("name", "prompt", "model")


def _same_fields(first: EvaluatorDraft, second: EvaluatorDraft) -> bool:
    names = [item.name for item in fields(EvaluatorDraft) if item.name != "original"]
    return all(getattr(first, name) == getattr(second, name) for name in names)


def _shown(value: Any) -> str:
    """A part's value as its text field shows it."""
    if value is None:
        return ""
    return value if isinstance(value, str) else json_text(value)


def _unless_unchanged(text: str, original: Any) -> Any:
    return original if text == _shown(original) else text


def _drop_target(document: dict[Any, Any], spelling: Spelling) -> None:
    *path, last = spelling.target_path
    container: Any = document
    for key in path:
        container = container.get(key) if isinstance(container, dict) else None
    if isinstance(container, dict):
        container.pop(last, None)


def _block_type(item: Any) -> str:
    if isinstance(item, dict) and isinstance(item.get("type"), str):
        return item["type"]
    return "(no type)" if isinstance(item, dict) else "(not a block)"


def _turns_from_form(form: Mapping[str, str], section: str) -> list[TurnDraft]:
    turns = []
    for index in range(form_count(form, f"{section}-count", MAX_TURNS)):
        prefix = f"{section}-{index}"
        meta = item_meta(form, f"{prefix}-meta")
        role = form.get(f"{prefix}-role", "")
        if role not in ROLES:
            raise DraftFormError(f"{prefix}-role: unknown role {role!r}")
        blocks = []
        for block_index in range(form_count(form, f"{prefix}-block-count", MAX_BLOCKS)):
            block_prefix = f"{prefix}-block-{block_index}"
            block_meta = item_meta(form, f"{block_prefix}-meta")
            blocks.append(
                BlockDraft(
                    type=form.get(f"{block_prefix}-type", "text") or "text",
                    value=form_text(form.get(f"{block_prefix}-value", "")),
                    bare=bool(block_meta.get("bare")),
                    extra=block_meta["extra"],
                    key_order=block_meta["key_order"],
                    raw=block_meta.get("raw"),
                )
            )
        content_form = meta.get("content_form", "string")
        if content_form not in CONTENT_FORMS:
            raise DraftFormError(f"{prefix}-meta: unknown content form {content_form!r}")
        tool_calls = None
        if meta.get("tool_calls"):
            tool_calls = [
                _tool_call_from_form(form, f"{prefix}-tool-{call}")
                for call in range(form_count(form, f"{prefix}-tool-count", MAX_TOOL_CALLS))
            ]
        turns.append(
            TurnDraft(
                role=role,
                blocks=blocks,
                content_form=content_form,
                mapping_text=form_text(form.get(f"{prefix}-mapping", "")),
                tool_calls=tool_calls,
                extra=meta["extra"],
                key_order=meta["key_order"],
                raw_content=meta.get("raw_content"),
                original_mapping=meta.get("original_mapping"),
            )
        )
    return turns


def _tool_call_from_form(form: Mapping[str, str], prefix: str) -> ToolCallDraft:
    meta = item_meta(form, f"{prefix}-meta")
    return ToolCallDraft(
        tool=form.get(f"{prefix}-tool", "").strip(),
        input_text=form_text(form.get(f"{prefix}-input", "")),
        output_text=form_text(form.get(f"{prefix}-output", "")),
        extra=meta["extra"],
        key_order=meta["key_order"],
        originals=_originals(meta.get("originals")),
    )


def _originals(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not set(value) <= {"input", "output"}:
        raise DraftFormError("tool call meta: malformed originals")
    return value


def _evaluator_from_form(form: Mapping[str, str], prefix: str) -> EvaluatorDraft:
    meta = item_meta(form, f"{prefix}-meta")
    values = {name: _cleaned(name, form.get(f"{prefix}-{name}", "")) for name in EVALUATOR_FIELDS}
    return EvaluatorDraft(
        **values, extra=meta["extra"], key_order=meta["key_order"], original=meta.get("original")
    )


def _cleaned(name: str, value: str) -> str:
    """An evaluator field as the form reads it: one-line values without surrounding spaces; an
    inline judge template is text, its line breaks and blank lines part of it."""
    value = form_text(value)
    return value if name == "prompt" and "\n" in value else value.strip()


def _as_the_form_reads(draft: EvaluatorDraft) -> EvaluatorDraft:
    """`draft` with its fields cleaned as posting them cleans them, so that an evaluator read
    from a file compares equal to the same evaluator posted back unchanged."""
    for name in EVALUATOR_FIELDS:
        setattr(draft, name, _cleaned(name, getattr(draft, name)))
    return draft


def meta_json(item: BlockDraft | TurnDraft | EvaluatorDraft | ToolCallDraft) -> str:
    """The hidden `-meta` value that carries an item's unknown keys through the form.

    Empty for a turn or block (nearly all of them) that has only its own keys in the usual
    order, which is what an empty value reads as: the preview posts the whole form on every
    pause in typing.
    """
    if _plain(item):
        return ""
    meta: dict[str, Any] = {"extra": item.extra, "key_order": item.key_order}
    if isinstance(item, BlockDraft):
        if item.bare:
            meta["bare"] = True
        if item.raw is not None:
            meta = {"raw": item.raw}
    if isinstance(item, TurnDraft):
        meta["content_form"] = item.content_form
        if item.tool_calls is not None:
            meta["tool_calls"] = True
        if item.content_form == "raw":
            meta["raw_content"] = item.raw_content
        if item.original_mapping is not None:
            meta["original_mapping"] = item.original_mapping
    if isinstance(item, ToolCallDraft) and item.originals:
        meta["originals"] = item.originals
    if isinstance(item, EvaluatorDraft) and item.original is not None:
        meta["original"] = item.original
    return encode_json(meta)


def _plain(item: BlockDraft | TurnDraft | EvaluatorDraft | ToolCallDraft) -> bool:
    if isinstance(item, TurnDraft):
        usual = item.content_form == "string" and item.key_order in ([], ["role", "content"])
        return usual and not item.extra and item.tool_calls is None
    if isinstance(item, BlockDraft):
        usual_order = item.key_order in ([], ["type", "value"])
        return not item.bare and not item.extra and usual_order and item.raw is None
    return False


def case_meta_json(draft: CaseDraft) -> str:
    """The hidden `case-meta` value: the case without the parts the form shows, where each
    part lives, and the parts' values as read."""
    meta = {
        "spelling": draft.spelling.as_json(),
        "skeleton": draft.skeleton,
        "unread": list(draft.unread),
        "outcome": draft.original_outcome,
        "target": draft.original_target,
        "evaluators": draft.original_evaluators,
    }
    return encode_json(meta)


# Structural edits. Each returns the id of the control to focus afterwards.


def _add_turn(draft: CaseDraft, section: str, role: str) -> str:
    if section not in SECTIONS or role not in ROLES:
        raise ValueError(section)
    turns = draft.turns(section)
    turns.append(TurnDraft(role=role))
    return f"{section}-{len(turns) - 1}-block-0-value"


def _delete_turn(draft: CaseDraft, section: str, index: str) -> str | None:
    turns = draft.turns(section)
    del turns[item_index(index, turns)]
    return None


def _move_turn(draft: CaseDraft, section: str, index: str, direction: str) -> str:
    turns = draft.turns(section)
    target = swap(turns, item_index(index, turns), direction)
    return move_focus(f"{section}-{target}", target, len(turns), direction)


def _add_block(draft: CaseDraft, section: str, index: str, block_type: str) -> str:
    if block_type not in ("text", "file"):
        raise ValueError(block_type)
    turn = _turn(draft, section, index)
    if turn.content_form not in ("string", "list", "absent"):
        raise ValueError("content is not a list of blocks")
    turn.content_form = "list"
    turn.blocks.append(BlockDraft(type=block_type))
    return f"{section}-{index}-block-{len(turn.blocks) - 1}-value"


def _delete_block(draft: CaseDraft, section: str, index: str, block: str) -> str | None:
    turn = _turn(draft, section, index)
    del turn.blocks[item_index(block, turn.blocks)]
    turn.content_form = "list"
    return None


def _move_block(draft: CaseDraft, section: str, index: str, block: str, direction: str) -> str:
    turn = _turn(draft, section, index)
    target = swap(turn.blocks, item_index(block, turn.blocks), direction)
    turn.content_form = "list"
    return move_focus(f"{section}-{index}-block-{target}", target, len(turn.blocks), direction)


def _add_tool_call(draft: CaseDraft, section: str, index: str) -> str:
    turn = _turn(draft, section, index)
    if turn.tool_calls is None:
        turn.tool_calls = []
    turn.tool_calls.append(ToolCallDraft())
    return f"{section}-{index}-tool-{len(turn.tool_calls) - 1}-tool"


def _delete_tool_call(draft: CaseDraft, section: str, index: str, call: str) -> str | None:
    turn = _turn(draft, section, index)
    calls = turn.tool_calls or []
    del calls[item_index(call, calls)]
    return None


def _add_evaluator(draft: CaseDraft, evaluator_type: str) -> str:
    if evaluator_type not in EVALUATOR_TYPES:
        raise ValueError(evaluator_type)
    draft.evaluators.append(EvaluatorDraft(type=evaluator_type))
    return f"evaluator-{len(draft.evaluators) - 1}-name"


def _delete_evaluator(draft: CaseDraft, index: str) -> str | None:
    del draft.evaluators[item_index(index, draft.evaluators)]
    return None


def _turn(draft: CaseDraft, section: str, index: str) -> TurnDraft:
    turns = draft.turns(section)
    return turns[item_index(index, turns)]


_ACTIONS: dict[str, Any] = {
    "add-turn": _add_turn,
    "delete-turn": _delete_turn,
    "move-turn": _move_turn,
    "add-block": _add_block,
    "delete-block": _delete_block,
    "move-block": _move_block,
    "add-tool-call": _add_tool_call,
    "delete-tool-call": _delete_tool_call,
    "add-evaluator": _add_evaluator,
    "delete-evaluator": _delete_evaluator,
}

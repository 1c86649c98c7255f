"""The editor's drafts of a today's test's other parts: its variables as typed fields, its asserts
as a structured list, and a conversation test's turns and settings (docs/formats.md, "Today's
tests"; docs/user-guide.md, "The editor").

Each draft reads a part as `eval_files.parts_2026` finds it, shows it as form fields, and gives
it back: unchanged, exactly as read (a `1.0`, a `required: 0.8`, an argv list stay what they
were); changed, in the part's own shape. Values the editor cannot take apart (an assert with a
list of rubric items, a turn whose input is a list of messages) are edited as YAML or JSON text.
Field names: `var-2-value`, `assert-0-weight`, `cturn-1-input`, `cturn-1-assert-0-value`, …
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..eval_files.errors import EvalFileError
from ..eval_files.json_text import encode_json
from ..eval_files.key_order import ordered_mapping
from ..eval_files.parts_2026 import CONVERSATION_SETTINGS, Parts2026
from ..eval_files.yaml_dumper import dump_yaml
from ..eval_files.yaml_loader import load_yaml
from ..formatting.profile_2026.expansion import expands_variable
from ..request_numbers import parse_number
from .form_fields import (
    DraftFormError,
    Problems,
    form_count,
    form_meta,
    form_text,
    item_index,
    item_meta,
    json_text,
    json_value,
    move_focus,
    swap,
)

VARIABLE_KINDS = ("text", "number", "boolean", "list", "json")
VALUE_CHECKS = ("contains", "regex", "equals")
ASSERT_KINDS = ("rubric", *VALUE_CHECKS, "llm-rubric", "script", "other")
# The variables that are the conversation and the expected answer: edited as turns.
RESERVED_VARIABLES = ("input", "expected_output")
# Bounds on what one form may hold, so a hostile request cannot make the server loop for long.
MAX_VARIABLES = 200
MAX_ASSERTS = 100
MAX_CONVERSATION_TURNS = 500

_INTEGER = re.compile(r"[-+]?[0-9]+\Z")
_ABSENT = object()


@dataclass
class VariableDraft:
    """A variable of the test: text, a number, a boolean, a list of one-line texts (each makes
    its own test), or any other value as JSON."""

    name: str = ""
    kind: str = "text"
    text: str = ""
    # The value as read: written back while the field shows it unchanged.
    original: Any = _ABSENT

    @classmethod
    def from_value(cls, name: str, value: Any) -> VariableDraft:
        """A draft of the variable `name` holding `value`."""
        kind, text = _variable_fields(value)
        return cls(name=name, kind=kind, text=text, original=value)

    @property
    def expansions(self) -> int | None:
        """For a list AgentV expands: how many tests the variable makes of the test (one per
        item); None for any other value."""
        value = self.value([], "var")
        return len(value) if expands_variable(value) else None

    def value(self, problems: Problems, prefix: str) -> Any:
        """The variable's value; a value that does not parse is added to `problems`."""
        if self.original is not _ABSENT and _variable_fields(self.original) == (
            self.kind,
            self.text,
        ):
            return self.original
        if self.kind == "number":
            number = _number(self.text)
            if number is None:
                problems.append((f"{prefix}-value", f"{self.text.strip()!r} is not a number"))
            return number
        if self.kind == "boolean":
            return self.text == "true"
        if self.kind == "list":
            return _list_items(self.text)
        if self.kind == "json":
            return json_value(self.text, f"{prefix}-value", problems)
        return self.text


@dataclass
class AssertDraft:
    """One entry of an `assert` list: a rubric line (a bare string), a `contains`/`regex`/
    `equals` check with its value, an `llm-rubric` with text or a prompt file, a `script` with
    its command and working folder, or any other entry, edited as YAML. Typed entries have a
    name, a weight and whether they are required, as AgentV reads them."""

    kind: str = "rubric"
    value: str = ""
    prompt: str = ""
    command: str = ""
    cwd: str = ""
    name: str = ""
    weight: str = ""
    required: bool = False
    negate: bool = False
    yaml_text: str = ""
    extra: dict[Any, Any] = field(default_factory=dict)
    key_order: list[Any] = field(default_factory=list)
    # A command written as an argv list is edited as one line and split back into a list.
    command_list: bool = False
    original: Any = _ABSENT

    @property
    def label(self) -> str:
        """How the editor names the entry's kind."""
        return {"rubric": "Rubric line", "other": "Other assert"}.get(self.kind, self.kind)

    @property
    def negation(self) -> str:
        """What `negate: true` makes of the check, in words: the label of the form's Negate
        box, and said beside the value when it is ticked."""
        return _NEGATIONS.get(self.kind, "This check must NOT pass")

    @property
    def kept_options(self) -> str:
        """The entry's options the form does not edit (`negate`, `metadata`, …) as YAML; they
        are written back as they are."""
        return dump_yaml(self.extra).rstrip("\n") if self.extra else ""

    @classmethod
    def from_document(cls, item: Any) -> AssertDraft:
        """A draft of one entry of an `assert` list."""
        if isinstance(item, str):
            return cls(kind="rubric", value=item, original=item)
        kind = _assert_kind(item)
        if kind == "other":
            return cls(kind="other", yaml_text=_yaml_text(item), original=item)
        command = item.get("command", "")
        required = item.get("required", False)
        return cls(
            kind=kind,
            value=item.get("value", ""),
            prompt=item.get("prompt", ""),
            command=shlex.join(command) if isinstance(command, list) else command,
            cwd=item.get("cwd", ""),
            name=item.get("name", ""),
            weight=_number_text(item.get("weight")),
            required=required is not False and required is not None,
            negate=item.get("negate") is True,
            extra={key: value for key, value in item.items() if key not in _known(kind)},
            key_order=list(item),
            command_list=isinstance(command, list),
            original=item,
        )

    def document(self, problems: Problems, prefix: str) -> Any:
        """The entry as YAML has it; values that do not parse are added to `problems`."""
        if self.original is not _ABSENT and _same_assert(
            AssertDraft.from_document(self.original), self
        ):
            return self.original
        if self.kind == "rubric":
            return self.value
        if self.kind == "other":
            return self._other(problems, prefix)
        known: dict[str, Any] = {"type": self.kind}
        if self.kind in (*VALUE_CHECKS, "llm-rubric"):
            known["value"] = self.value or None
        if self.kind == "llm-rubric":
            known["prompt"] = self.prompt.strip() or None
        if self.kind == "script":
            known["command"] = self._command(problems, prefix)
            known["cwd"] = self.cwd.strip() or None
        known["name"] = self.name.strip() or None
        known["weight"] = self._weight(problems, prefix)
        known["required"] = self._required()
        known["negate"] = self._negate()
        present = {key: value for key, value in known.items() if value is not None}
        order = [key for key in self.key_order if key in present or key in self.extra]
        return ordered_mapping(present, self.extra, order)

    def _other(self, problems: Problems, prefix: str) -> Any:
        try:
            value = load_yaml(self.yaml_text).data
        except EvalFileError as error:
            problems.append((f"{prefix}-yaml", f"not valid YAML ({error.message})"))
            return None
        if not isinstance(value, (dict, str)):
            problems.append(
                (f"{prefix}-yaml", "an assert is a mapping with a `type`, or a rubric line")
            )
        return value

    def _command(self, problems: Problems, prefix: str) -> Any:
        text = self.command.strip()
        if not text:
            return None
        if not self.command_list:
            return text
        try:
            return shlex.split(text)
        except ValueError as error:
            problems.append((f"{prefix}-command", f"cannot split the command ({error})"))
            return None

    def _weight(self, problems: Problems, prefix: str) -> Any:
        if not self.weight.strip():
            return None
        number = _number(self.weight)
        if number is None:
            problems.append((f"{prefix}-weight", f"{self.weight.strip()!r} is not a number"))
        return number

    def _negate(self) -> Any:
        if self.negate:
            return True
        # `negate: false` as written stays while the box stays unticked.
        before = self.original.get("negate") if isinstance(self.original, dict) else None
        return before if before is not True else None

    def _required(self) -> Any:
        if not self.required:
            return None
        before = self.original.get("required") if isinstance(self.original, dict) else None
        # `required: 0.8` (a minimum score) stays while the box stays ticked.
        return before if before not in (None, False) else True


# `negate: true` turns a check round (AgentV's assertion options).
_NEGATIONS = {
    "contains": "The answer must NOT contain this text",
    "regex": "The answer must NOT match this pattern",
    "equals": "The answer must NOT equal this text",
    "llm-rubric": "The judge must find the rubric NOT met",
    "script": "The script's check must NOT pass",
}


@dataclass
class ConversationTurnDraft:
    """One turn of a conversation test: its input and expected output (text, or any other value
    as YAML), its asserts, and whatever else it holds."""

    input_text: str = ""
    input_form: str = "text"
    expected_text: str = ""
    expected_form: str = "text"
    asserts: list[AssertDraft] | None = None
    extra: dict[Any, Any] = field(default_factory=dict)
    key_order: list[Any] = field(default_factory=list)
    originals: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_document(cls, turn: dict[Any, Any]) -> ConversationTurnDraft:
        """A draft of one mapping of `turns`."""
        asserts = turn.get("assert")
        known = ["input", "expected_output"]
        if isinstance(asserts, list):
            known.append("assert")
        draft = cls(
            asserts=[AssertDraft.from_document(item) for item in asserts]
            if isinstance(asserts, list)
            else None,
            extra={key: value for key, value in turn.items() if key not in known},
            key_order=list(turn),
            originals={key: turn[key] for key in ("input", "expected_output") if key in turn},
        )
        draft.input_form, draft.input_text = _turn_value_fields(turn.get("input", ""))
        draft.expected_form, draft.expected_text = _turn_value_fields(
            turn.get("expected_output", "")
        )
        return draft

    @property
    def kept_empty(self) -> bool:
        """Whether the turn's input is empty as the file has it (not left empty here)."""
        original = self.originals.get("input", _ABSENT)
        return original is not _ABSENT and _turn_value_fields(original) == (
            self.input_form,
            self.input_text,
        )

    def document(self, problems: Problems, prefix: str) -> dict[Any, Any]:
        """The turn mapping; values that do not parse are added to `problems`."""
        known: dict[str, Any] = {
            "input": self._value("input", self.input_form, self.input_text, problems, prefix),
            "expected_output": self._value(
                "expected_output", self.expected_form, self.expected_text, problems, prefix
            ),
        }
        if self.asserts is not None:
            asserts = [
                item.document(problems, f"{prefix}-assert-{index}")
                for index, item in enumerate(self.asserts)
            ]
            known["assert"] = asserts if asserts or "assert" in self.key_order else _ABSENT
        present = {key: value for key, value in known.items() if value is not _ABSENT}
        order = [key for key in self.key_order if key in present or key in self.extra]
        return ordered_mapping(present, self.extra, order)

    def _value(self, key: str, form: str, text: str, problems: Problems, prefix: str) -> Any:
        original = self.originals.get(key, _ABSENT)
        if original is not _ABSENT and _turn_value_fields(original) == (form, text):
            return original
        name = f"{prefix}-{'input' if key == 'input' else 'expected'}"
        if form == "yaml":
            try:
                return load_yaml(text).data
            except EvalFileError as error:
                problems.append((name, f"not valid YAML ({error.message})"))
                return _ABSENT
        if not text and original is _ABSENT and key == "expected_output":
            return _ABSENT  # a turn without an expected output stays without one
        return text


@dataclass
class Parts2026Draft:
    """A test's variables, asserts and conversation as the editor holds them. A part that is
    None is not edited (the test has it in a shape kept as written, or the form does not show
    it) and stays as the case's skeleton has it."""

    variables: list[VariableDraft] | None = None
    asserts: list[AssertDraft] | None = None
    asserts_key: str = "assert"
    conversation: bool = False
    settings: dict[str, str] = field(default_factory=dict)
    setting_originals: dict[str, Any] = field(default_factory=dict)
    turns: list[ConversationTurnDraft] | None = None
    present: frozenset[str] = frozenset()

    @classmethod
    def from_parts(cls, parts: Parts2026) -> Parts2026Draft:
        """A draft of the parts `parts_2026.split_test` found."""
        return cls(
            variables=[VariableDraft.from_value(k, v) for k, v in parts.variables.items()]
            if parts.variables is not None
            else None,
            asserts=[AssertDraft.from_document(item) for item in parts.asserts]
            if parts.asserts is not None
            else None,
            asserts_key=parts.asserts_key,
            conversation=parts.conversation,
            settings={name: _setting_text(value) for name, value in parts.settings.items()},
            setting_originals=dict(parts.settings),
            turns=[ConversationTurnDraft.from_document(turn) for turn in parts.turns]
            if parts.turns is not None
            else None,
            present=parts.present,
        )

    def parts(self, problems: Problems) -> Parts2026:
        """The parts for `test_parts.join_test`; values that do not parse go to `problems`."""
        return Parts2026(
            variables=self._variables(problems),
            asserts_key=self.asserts_key,
            asserts=[item.document(problems, f"assert-{i}") for i, item in enumerate(self.asserts)]
            if self.asserts is not None
            else None,
            settings=self._settings(problems),
            turns=[turn.document(problems, f"cturn-{i}") for i, turn in enumerate(self.turns)]
            if self.turns is not None and self.conversation
            else None,
        )

    def empty_turns(self) -> Problems:
        """A problem for each conversation turn left without a user input: Save refuses them
        rather than write a turn that sends the model nothing (docs/user-guide.md, "The editor
        for today's tests"). A turn the file has empty, and still empty, is kept as read."""
        if not self.edits_conversation:
            return []
        return [
            (
                f"cturn-{index}-input",
                f"conversation turn {index + 1} has no user input: type one, or delete the turn",
            )
            for index, turn in enumerate(self.turns or ())
            if turn.input_form == "text" and not turn.input_text.strip() and not turn.kept_empty
        ]

    @property
    def edits_conversation(self) -> bool:
        """Whether the editor shows the test's conversation turns and settings."""
        return self.conversation and self.turns is not None

    def offer_only_present(self) -> None:
        """Stop offering the parts the test does not have: a case of an older period is not
        given variables, asserts or turns unless it has them already."""
        if "vars" not in self.present:
            self.variables = None
        if self.asserts_key not in self.present:
            self.asserts = None
        if not self.conversation:
            self.turns = None

    @property
    def expansions(self) -> int:
        """How many tests the list variables make of the test (before the suite's prompts)."""
        count = 1
        for variable in self.variables or []:
            if variable.expansions is not None:
                count *= variable.expansions
        return count

    def _variables(self, problems: Problems) -> dict[str, Any] | None:
        if self.variables is None:
            return None
        values: dict[str, Any] = {}
        for index, variable in enumerate(self.variables):
            prefix = f"var-{index}"
            name = variable.name.strip()
            if not name:
                problems.append((f"{prefix}-name", "a variable needs a name"))
            elif name in RESERVED_VARIABLES:
                problems.append(
                    (f"{prefix}-name", f"`{name}` is edited as the test's turns, not here")
                )
            elif name in values:
                problems.append((f"{prefix}-name", f"a second variable named `{name}`"))
            values[name] = variable.value(problems, prefix)
        return values

    def _settings(self, problems: Problems) -> dict[str, Any]:
        settings: dict[str, Any] = {}
        for name, text in self.settings.items():
            original = self.setting_originals.get(name, _ABSENT)
            if original is not _ABSENT and _setting_text(original) == text:
                settings[name] = original
            elif name == "window_size" and text.strip():
                size = parse_number(text.strip())
                if size is None or size < 1:
                    problems.append(
                        ("conversation-window_size", f"{text.strip()!r} is not a whole number")
                    )
                settings[name] = size
            else:
                settings[name] = text.strip() or None
        return settings

    @classmethod
    def from_form(cls, form: Mapping[str, str], read: Parts2026) -> Parts2026Draft:
        """The parts of the editor's form, of a test whose parts as read are `read` (from the
        case's skeleton); a part whose fields the form lacks stays None."""
        draft = cls(
            asserts_key=read.asserts_key,
            setting_originals=dict(read.settings),
            present=read.present,
        )
        if "var-count" in form:
            draft.variables = [
                _variable_from_form(form, f"var-{index}")
                for index in range(form_count(form, "var-count", MAX_VARIABLES))
            ]
        if "assert-count" in form:
            draft.asserts = _asserts_from_form(form, "assert")
        draft.conversation = form.get("conversation") == "on"
        draft.settings = {
            name: form[f"conversation-{name}"]
            for name in CONVERSATION_SETTINGS
            if f"conversation-{name}" in form
        }
        if "cturn-count" in form:
            draft.turns = [
                _conversation_turn_from_form(form, f"cturn-{index}")
                for index in range(form_count(form, "cturn-count", MAX_CONVERSATION_TURNS))
            ]
        return draft


def assert_meta_json(item: AssertDraft) -> str:
    """The hidden `-meta` value of an assert: its unknown keys and the entry as read."""
    meta: dict[str, Any] = {"extra": item.extra, "key_order": item.key_order}
    if item.command_list:
        meta["command_list"] = True
    if item.original is not _ABSENT:
        meta["original"] = item.original
    return encode_json(meta)


def turn_meta_json(turn: ConversationTurnDraft) -> str:
    """The hidden `-meta` value of a conversation turn."""
    return encode_json(
        {
            "extra": turn.extra,
            "key_order": turn.key_order,
            "originals": turn.originals,
            "asserts": turn.asserts is not None,
        }
    )


def variable_meta_json(variable: VariableDraft) -> str:
    """The hidden `-meta` value of a variable: its value as read."""
    return "" if variable.original is _ABSENT else encode_json({"original": variable.original})


# Reading the form.


def _variable_from_form(form: Mapping[str, str], prefix: str) -> VariableDraft:
    kind = form.get(f"{prefix}-kind", "text")
    if kind not in VARIABLE_KINDS:
        raise DraftFormError(f"{prefix}-kind: unknown kind {kind!r}")
    meta = form_meta(form, f"{prefix}-meta")
    text = form_text(form.get(f"{prefix}-value", ""))
    if kind == "boolean" and text not in ("true", "false"):
        raise DraftFormError(f"{prefix}-value: a boolean is true or false")
    return VariableDraft(
        name=form.get(f"{prefix}-name", ""),
        kind=kind,
        text=text,
        original=meta.get("original", _ABSENT),
    )


def _asserts_from_form(form: Mapping[str, str], prefix: str) -> list[AssertDraft]:
    return [
        _assert_from_form(form, f"{prefix}-{index}")
        for index in range(form_count(form, f"{prefix}-count", MAX_ASSERTS))
    ]


def _assert_from_form(form: Mapping[str, str], prefix: str) -> AssertDraft:
    kind = form.get(f"{prefix}-kind", "")
    if kind not in ASSERT_KINDS:
        raise DraftFormError(f"{prefix}-kind: unknown assert kind {kind!r}")
    meta = item_meta(form, f"{prefix}-meta")
    return AssertDraft(
        kind=kind,
        value=form_text(form.get(f"{prefix}-value", "")),
        prompt=form_text(form.get(f"{prefix}-prompt", "")),
        command=form.get(f"{prefix}-command", ""),
        cwd=form.get(f"{prefix}-cwd", ""),
        name=form.get(f"{prefix}-name", ""),
        weight=form.get(f"{prefix}-weight", ""),
        required=form.get(f"{prefix}-required") == "on",
        negate=form.get(f"{prefix}-negate") == "on",
        yaml_text=form_text(form.get(f"{prefix}-yaml", "")),
        extra=meta["extra"],
        key_order=meta["key_order"],
        command_list=bool(meta.get("command_list")),
        original=meta.get("original", _ABSENT),
    )


def _conversation_turn_from_form(form: Mapping[str, str], prefix: str) -> ConversationTurnDraft:
    meta = item_meta(form, f"{prefix}-meta")
    originals = meta.get("originals", {})
    if not isinstance(originals, dict):
        raise DraftFormError(f"{prefix}-meta: malformed")
    forms = (form.get(f"{prefix}-input-form", "text"), form.get(f"{prefix}-expected-form", "text"))
    if not set(forms) <= {"text", "yaml"}:
        raise DraftFormError(f"{prefix}: unknown value form")
    return ConversationTurnDraft(
        input_text=form_text(form.get(f"{prefix}-input", "")),
        input_form=forms[0],
        expected_text=form_text(form.get(f"{prefix}-expected", "")),
        expected_form=forms[1],
        asserts=_asserts_from_form(form, f"{prefix}-assert") if meta.get("asserts") else None,
        extra=meta["extra"],
        key_order=meta["key_order"],
        originals=originals,
    )


# Structural edits of a case's parts, dispatched by `CaseDraft.apply` with its `test`.
# Each returns the id of the control to focus.


def add_variable(parts: Parts2026Draft, kind: str) -> str:
    """`add-var:KIND`: a new variable of that kind, with no name yet."""
    if kind not in VARIABLE_KINDS:
        raise ValueError(kind)
    variables = _require(parts.variables)
    variables.append(VariableDraft(kind=kind, text="false" if kind == "boolean" else ""))
    return f"var-{len(variables) - 1}-name"


def delete_variable(parts: Parts2026Draft, index: str) -> str | None:
    """`delete-var:N`."""
    variables = _require(parts.variables)
    del variables[item_index(index, variables)]
    return None


def add_assert(parts: Parts2026Draft, where: str, kind: str) -> str:
    """`add-assert:case:KIND` or `add-assert:cturn-N:KIND`."""
    if kind not in ASSERT_KINDS:
        raise ValueError(kind)
    asserts, prefix = _assert_list(parts, where, create=True)
    item = AssertDraft(kind=kind, yaml_text="type: \n" if kind == "other" else "")
    asserts.append(item)
    first = {"other": "yaml", "script": "command"}.get(kind, "value")
    return f"{prefix}-{len(asserts) - 1}-{first}"


def delete_assert(parts: Parts2026Draft, where: str, index: str) -> str | None:
    """`delete-assert:case:N` or `delete-assert:cturn-N:M`."""
    asserts, _ = _assert_list(parts, where)
    del asserts[item_index(index, asserts)]
    return None


def move_assert(parts: Parts2026Draft, where: str, index: str, direction: str) -> str:
    """`move-assert:case:N:up` (or `down`)."""
    asserts, prefix = _assert_list(parts, where)
    target = swap(asserts, item_index(index, asserts), direction)
    return move_focus(f"{prefix}-{target}", target, len(asserts), direction)


def make_conversation(parts: Parts2026Draft) -> str:
    """`make-conversation`: turn the test into a conversation test with one empty turn."""
    test = parts
    test.conversation = True
    test.settings.setdefault("mode", "conversation")
    if test.turns is None:
        test.turns = []
    if not test.turns:
        test.turns.append(ConversationTurnDraft())
    return "cturn-0-input"


def add_conversation_turn(parts: Parts2026Draft) -> str:
    """`add-cturn`: a new last turn."""
    turns = _require(parts.turns)
    turns.append(ConversationTurnDraft())
    return f"cturn-{len(turns) - 1}-input"


def delete_conversation_turn(parts: Parts2026Draft, index: str) -> str | None:
    """`delete-cturn:N`."""
    turns = _require(parts.turns)
    del turns[item_index(index, turns)]
    return None


def move_conversation_turn(parts: Parts2026Draft, index: str, direction: str) -> str:
    """`move-cturn:N:up` (or `down`)."""
    turns = _require(parts.turns)
    target = swap(turns, item_index(index, turns), direction)
    return move_focus(f"cturn-{target}", target, len(turns), direction)


TEST_ACTIONS: dict[str, Callable[..., str | None]] = {
    "add-var": add_variable,
    "delete-var": delete_variable,
    "add-assert": add_assert,
    "delete-assert": delete_assert,
    "move-assert": move_assert,
    "make-conversation": make_conversation,
    "add-cturn": add_conversation_turn,
    "delete-cturn": delete_conversation_turn,
    "move-cturn": move_conversation_turn,
}


def _assert_list(
    parts: Parts2026Draft, where: str, *, create: bool = False
) -> tuple[list[AssertDraft], str]:
    if where == "case":
        return _require(parts.asserts), "assert"
    if not where.startswith("cturn-"):
        raise ValueError(where)
    turns = _require(parts.turns)
    turn = turns[item_index(where.removeprefix("cturn-"), turns)]
    if turn.asserts is None and create:
        turn.asserts = []
    return _require(turn.asserts), f"{where}-assert"


def _require(items: list[Any] | None) -> list[Any]:
    if items is None:
        raise ValueError("this part of the test is kept as written, not edited")
    return items


# Values and their fields.


def _variable_fields(value: Any) -> tuple[str, str]:
    """The kind and text a variable's value is shown as."""
    if isinstance(value, bool):
        return "boolean", "true" if value else "false"
    if isinstance(value, (int, float)):
        return "number", _number_text(value)
    if isinstance(value, str):
        return "text", value
    if isinstance(value, list) and value and all(_list_item(item) for item in value):
        return "list", "\n".join(value)
    return "json", json_text(value)


def _list_item(item: Any) -> bool:
    """Whether a list item can be a line of the list's text box (and read back the same)."""
    return isinstance(item, str) and item == item.strip() and bool(item) and "\n" not in item


def _list_items(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n") if line.strip()]


def _number(text: str) -> int | float | None:
    text = text.strip()
    if _INTEGER.match(text):
        return int(text)
    try:
        number = float(text)
    except ValueError:
        return None
    return number if number == number and abs(number) != float("inf") else None


def _number_text(value: Any) -> str:
    if value is None:
        return ""
    return str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else ""


def _assert_kind(item: Any) -> str:
    """How the editor shows a mapping of an `assert` list (`other`: as YAML)."""
    if not isinstance(item, dict):
        return "other"
    kind = item.get("type")
    if kind not in (*VALUE_CHECKS, "llm-rubric", "script"):
        return "other"
    text_fields = {"value", "name"} if kind != "script" else {"cwd", "name"}
    if kind == "llm-rubric":
        text_fields.add("prompt")
    if any(key in item and not isinstance(item[key], str) for key in text_fields):
        return "other"
    weight = item.get("weight")
    if weight is not None and _number_text(weight) == "":
        return "other"
    required = item.get("required")
    if required is not None and _number_text(required) == "" and not isinstance(required, bool):
        return "other"
    if kind == "script":
        command = item.get("command", "")
        argv = isinstance(command, list) and all(isinstance(arg, str) for arg in command)
        if not (isinstance(command, str) or argv):
            return "other"
    return kind


def _known(kind: str) -> tuple[str, ...]:
    base = ("type", "name", "weight", "required", "negate")
    return {
        "llm-rubric": (*base, "value", "prompt"),
        "script": (*base, "command", "cwd"),
    }.get(kind, (*base, "value"))


def _same_assert(read: AssertDraft, posted: AssertDraft) -> bool:
    names = ("kind", "value", "prompt", "command", "cwd", "name", "weight", "required", "negate")
    if read.kind == "other":
        return posted.kind == "other" and read.yaml_text.strip() == posted.yaml_text.strip()
    return all(
        _comparable(getattr(read, name)) == _comparable(getattr(posted, name)) for name in names
    )


def _comparable(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


def _turn_value_fields(value: Any) -> tuple[str, str]:
    if isinstance(value, str):
        return "text", value
    return "yaml", _yaml_text(value)


def _setting_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _yaml_text(value: Any) -> str:
    return dump_yaml(value) if value is not None else ""

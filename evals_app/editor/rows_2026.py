"""What the case editor shows of a today's test besides its turns: its variables, its asserts
and a conversation test's settings and turns, as rows of named form fields (docs/user-guide.md,
"The editor")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..eval_files.parts_2026 import AGGREGATIONS, CONVERSATION_SETTINGS, TURN_FAILURE_RULES
from .drafts_2026 import (
    AssertDraft,
    ConversationTurnDraft,
    Parts2026Draft,
    VariableDraft,
    assert_meta_json,
    turn_meta_json,
    variable_meta_json,
)


@dataclass
class VariableRow:
    """A variable of the test with the names of its form fields."""

    prefix: str
    index: int
    variable: VariableDraft
    meta: str

    @property
    def kind_label(self) -> str:
        """The variable's kind in words."""
        return _VARIABLE_KIND_LABELS[self.variable.kind]


@dataclass
class AssertRow:
    """An entry of an `assert` list with the names of its form fields; `where` names the list
    in editor actions (`case`, or `cturn-2` for a conversation turn's)."""

    prefix: str
    index: int
    item: AssertDraft
    meta: str
    where: str
    last: bool

    @property
    def multiline_prompt(self) -> bool:
        """Whether an `llm-rubric` prompt is an inline template of several lines."""
        return "\n" in self.item.prompt


@dataclass
class ConversationTurnRow:
    """A turn of a conversation test with the names of its form fields and its asserts."""

    index: int
    turn: ConversationTurnDraft
    meta: str
    asserts: list[AssertRow]
    last: bool

    @property
    def prefix(self) -> str:
        """The prefix of every field of this turn, e.g. `cturn-2`."""
        return f"cturn-{self.index}"

    @property
    def number(self) -> int:
        """The turn's number as people count, from 1."""
        return self.index + 1

    @property
    def owner(self) -> str:
        """How the turn's asserts name it."""
        return f"turn {self.number}"

    @property
    def assert_count_name(self) -> str:
        """The name of the hidden field that counts the turn's asserts."""
        return f"{self.prefix}-assert-count"


def today_test_context(test: Parts2026Draft) -> dict[str, Any]:
    """The template context of a today's test's variables, asserts and conversation turns."""
    turns = test.turns or []
    return {
        "test": test,
        "variables": [
            VariableRow(f"var-{index}", index, variable, variable_meta_json(variable))
            for index, variable in enumerate(test.variables or [])
        ],
        "asserts": _assert_rows(test.asserts, "case", "assert"),
        "conversation_turns": [
            ConversationTurnRow(
                index,
                turn,
                turn_meta_json(turn),
                _assert_rows(turn.asserts, f"cturn-{index}", f"cturn-{index}-assert"),
                index == len(turns) - 1,
            )
            for index, turn in enumerate(turns)
        ],
        "conversation_settings": _settings_rows(test),
        "assert_kinds": _ASSERT_KIND_LABELS.items(),
    }


def _assert_rows(items: list[AssertDraft] | None, where: str, prefix: str) -> list[AssertRow]:
    items = items or []
    last = len(items) - 1
    return [
        AssertRow(f"{prefix}-{i}", i, item, assert_meta_json(item), where, i == last)
        for i, item in enumerate(items)
    ]


def _settings_rows(test: Parts2026Draft) -> list[dict[str, Any]]:
    """The conversation settings as select or text fields, each value offered even when it is
    not one AgentV knows (so that it is kept)."""
    choices = {
        "mode": ("conversation",),
        "aggregation": AGGREGATIONS,
        "on_turn_failure": TURN_FAILURE_RULES,
    }
    rows = []
    for name in CONVERSATION_SETTINGS:
        value = test.settings.get(name, "")
        options = choices.get(name)
        if options is not None and value and value not in options:
            options = (*options, value)
        label = _SETTING_LABELS[name]
        rows.append({"name": name, "value": value, "options": options, "label": label})
    return rows


_ASSERT_KIND_LABELS = {
    "rubric": "Rubric line",
    "contains": "contains",
    "regex": "regex",
    "equals": "equals",
    "llm-rubric": "llm-rubric",
    "script": "script",
    "other": "Other (YAML)",
}
_VARIABLE_KIND_LABELS = {
    "text": "text",
    "number": "number",
    "boolean": "true or false",
    "list": "list: one test per line",
    "json": "JSON",
}
_SETTING_LABELS = {
    "mode": "Mode",
    "aggregation": "Score across turns",
    "on_turn_failure": "When a turn fails",
    "window_size": "Window (exchanges kept)",
}

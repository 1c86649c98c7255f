"""The editor's fields named as the page shows them: `expected-0-tool-0-input` is "Tool call 1
of expected message 1", never the form key (docs/user-guide.md, "The editor").

Field names are those of `case_drafts` (turns, blocks, tool calls) and `drafts_2026` (variables,
asserts, conversation turns and settings).
"""

from __future__ import annotations

import re

from .form_fields import Problems
from .rows_2026 import _SETTING_LABELS  # the labels of the conversation settings' fields

# What a field of a tool call, a variable, an assert or a conversation turn is called on the page.
_TOOL_PARTS = {"input": "", "output": "output of "}
_ASSERT_PARTS = {
    "yaml": "",
    "value": "",
    "weight": "weight of ",
    "command": "command of ",
    "name": "name of ",
}
_CONVERSATION_PARTS = {"input": "input of ", "expected": "expected output of "}
_VARIABLE_PARTS = {"name": "name of ", "value": "value of "}

_TURN = re.compile(r"(?P<section>input|expected)-(?P<turn>\d+)-(?P<rest>.+)")
_TOOL = re.compile(r"tool-(?P<call>\d+)-(?P<part>\w+)")
_ASSERT = re.compile(r"assert-(?P<item>\d+)-(?P<part>\w+)")
_CONVERSATION_TURN = re.compile(r"cturn-(?P<turn>\d+)-(?P<rest>.+)")
_VARIABLE = re.compile(r"var-(?P<item>\d+)-(?P<part>\w+)")


def field_label(name: str) -> str:
    """What the page calls the field named `name`; the name itself if it is none of the
    editor's (so a message still says where)."""
    label = _label(name)
    return name if label is None else label[:1].upper() + label[1:]


def labelled_problems(problems: Problems) -> list[str]:
    """Each problem as "Field as the page shows it: message"."""
    return [f"{field_label(name)}: {message}" for name, message in problems]


def _label(name: str) -> str | None:
    turn = _TURN.fullmatch(name)
    if turn is not None:
        number = int(turn["turn"]) + 1
        owner = f"turn {number}" if turn["section"] == "input" else f"expected message {number}"
        rest = turn["rest"]
        if rest == "mapping":
            return f"content of {owner}"
        tool = _TOOL.fullmatch(rest)
        if tool is not None and tool["part"] in _TOOL_PARTS:
            return f"{_TOOL_PARTS[tool['part']]}tool call {int(tool['call']) + 1} of {owner}"
        return None
    conversation = _CONVERSATION_TURN.fullmatch(name)
    if conversation is not None:
        owner = f"conversation turn {int(conversation['turn']) + 1}"
        rest = conversation["rest"]
        if rest in _CONVERSATION_PARTS:
            return f"{_CONVERSATION_PARTS[rest]}{owner}"
        return _assert_label(rest, f" of {owner}")
    if name.startswith("assert-"):
        return _assert_label(name, "")
    variable = _VARIABLE.fullmatch(name)
    if variable is not None and variable["part"] in _VARIABLE_PARTS:
        return f"{_VARIABLE_PARTS[variable['part']]}variable {int(variable['item']) + 1}"
    setting = _SETTING_LABELS.get(name.removeprefix("conversation-"))
    if name.startswith("conversation-") and setting is not None:
        return setting
    return None


def _assert_label(name: str, owner: str) -> str | None:
    item = _ASSERT.fullmatch(name)
    if item is None or item["part"] not in _ASSERT_PARTS:
        return None
    return f"{_ASSERT_PARTS[item['part']]}assert {int(item['item']) + 1}{owner}"

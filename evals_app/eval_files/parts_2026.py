"""The parts of a today's test that sit beside its conversation: its other variables, its
asserts, and a conversation test's turns and settings (docs/formats.md, "Today's tests").

`case_parts.split_case` leaves these in the case's skeleton, where they keep their places.
`split_test` reads them from there; `join_test` writes edited ones back at the same keys, so
a test that was not changed keeps every key where it was, and new keys go after the others.
A part in a shape the editor cannot take apart (a `vars` that is not a mapping of named
values, an `assert` that is not a list, turns that are not mappings) is not offered for editing
and stays as written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .case_parts import Spelling

ASSERT_KEYS: tuple[str, ...] = ("assert", "assertions")
# A conversation test's settings, in the order a new one writes them.
CONVERSATION_SETTINGS: tuple[str, ...] = ("mode", "aggregation", "on_turn_failure", "window_size")
AGGREGATIONS: tuple[str, ...] = ("mean", "min", "max")
TURN_FAILURE_RULES: tuple[str, ...] = ("continue", "stop")
VARIABLES_KEY = "vars"
TURNS_KEY = "turns"


@dataclass
class Parts2026:
    """What `split_test` found. A part the test lacks is empty; None stands for a part in a
    shape that is kept as written (and not edited)."""

    # The variables other than those that are the conversation and the expected answer.
    variables: dict[str, Any] | None = field(default_factory=dict)
    asserts_key: str = "assert"
    asserts: list[Any] | None = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    turns: list[dict[Any, Any]] | None = field(default_factory=list)
    # Which of `vars`, the asserts' key and `turns` the test has.
    present: frozenset[str] = frozenset()

    @property
    def conversation(self) -> bool:
        """Whether the test is a conversation test: it has turns, or says `mode: conversation`."""
        return TURNS_KEY in self.present or self.settings.get("mode") == "conversation"


def split_test(skeleton: dict[Any, Any], spelling: Spelling) -> Parts2026:
    """The editable parts of today's test in a case's `skeleton` (see `case_parts.CaseParts`)."""
    key = next((key for key in ASSERT_KEYS if key in skeleton), "assert")
    parts = Parts2026(
        asserts_key=key,
        settings={name: skeleton[name] for name in CONVERSATION_SETTINGS if name in skeleton},
        present=frozenset(name for name in (VARIABLES_KEY, key, TURNS_KEY) if name in skeleton),
    )
    variables = skeleton.get(VARIABLES_KEY, {})
    if isinstance(variables, dict) and all(isinstance(name, str) for name in variables):
        taken = _taken_variables(spelling)
        parts.variables = {k: v for k, v in variables.items() if k not in taken}
    else:
        parts.variables = None
    asserts = skeleton.get(key, [])
    parts.asserts = list(asserts) if isinstance(asserts, list) else None
    turns = skeleton.get(TURNS_KEY, [])
    editable = isinstance(turns, list) and all(isinstance(turn, dict) for turn in turns)
    parts.turns = list(turns) if editable else None
    return parts


def join_test(skeleton: dict[Any, Any], spelling: Spelling, parts: Parts2026) -> dict[Any, Any]:
    """A copy of `skeleton` holding `parts` (as `split_test` would find them) at their keys.

    A part that is None is left as the skeleton has it. An empty part is written only where
    the skeleton had it empty too: removing every variable removes `vars` (unless the
    conversation lives there), removing every assert removes the key, a test that never had
    turns gets none. A setting of None removes its key. New keys go after the existing ones,
    so a conversation made in the editor has its settings before its turns.
    """
    document = dict(skeleton)
    if parts.variables is not None:
        _join_variables(document, spelling, parts.variables)
    if parts.asserts is not None:
        _join_list(document, parts.asserts_key, parts.asserts)
    for name, value in parts.settings.items():
        if value is None:
            document.pop(name, None)
        else:
            document[name] = value
    if parts.turns is not None:
        _join_list(document, TURNS_KEY, parts.turns)
    return document


def _join_list(document: dict[Any, Any], key: str, items: list[Any]) -> None:
    if items or document.get(key) == []:
        document[key] = items
    else:
        document.pop(key, None)


def _taken_variables(spelling: Spelling) -> set[str]:
    """The variables that are parts of the case (`vars.input`, `vars.expected_output`)."""
    return {
        path[1]
        for path in (spelling.input_path, spelling.expected_path)
        if len(path) == 2 and path[0] == VARIABLES_KEY
    }


def _join_variables(
    document: dict[Any, Any], spelling: Spelling, variables: dict[str, Any]
) -> None:
    before = document.get(VARIABLES_KEY)
    before = before if isinstance(before, dict) else {}
    taken = _taken_variables(spelling)
    # The variables go where the first of them was (so a renamed one keeps its place); the
    # conversation and the expected answer keep theirs.
    joined: dict[Any, Any] = {}
    for key, value in before.items():
        if key in taken:
            joined[key] = value
        elif not joined.keys() & variables.keys():
            joined.update(variables)
    joined.update((key, value) for key, value in variables.items() if key not in joined)
    if not joined and before:
        document.pop(VARIABLES_KEY, None)
    elif joined or VARIABLES_KEY in document:
        document[VARIABLES_KEY] = joined

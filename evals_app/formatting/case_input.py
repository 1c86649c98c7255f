"""What the engine formats: a case's conversation, expected answer, outcome and evaluators.

Built from a case document of any period by `eval_files.case_parts.case_input`; the engine
reads nothing else, so it knows no file format (docs/formatting.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

Role = Literal["system", "user", "assistant", "tool"]
ROLES: tuple[Role, ...] = ("system", "user", "assistant", "tool")


@dataclass(frozen=True, slots=True)
class MessageInput:
    """One message: its role and its content as written (a string, a list of blocks and bare
    strings, a mapping, or None when the message has no content)."""

    role: Role
    content: Any


@dataclass(frozen=True)
class CaseInput:
    """One case as the engine sees it. `evaluators` are the case's (else its file's) evaluator
    mappings, as written; `outcome` is the value the judge grades against, as written;
    `graded_otherwise` says the case has grading the engine does not read (rubrics, asserts)."""

    id: str
    input_messages: tuple[MessageInput, ...]
    expected_messages: tuple[MessageInput, ...] = ()
    outcome: Any = ""
    evaluators: tuple[Any, ...] = ()
    graded_otherwise: bool = False

    def file_references(self) -> list[str]:
        """Every file reference formatting may resolve: file blocks of the input and expected
        messages, and judge prompts (each of which may name a file)."""
        values: list[str] = []
        for message in (*self.input_messages, *self.expected_messages):
            if isinstance(message.content, list):
                values.extend(
                    item["value"]
                    for item in message.content
                    if isinstance(item, dict)
                    and item.get("type") == "file"
                    and isinstance(item.get("value"), str)
                )
        for evaluator in _with_members(self.evaluators):
            prompt = evaluator.get("prompt") if isinstance(evaluator, dict) else None
            if isinstance(prompt, str) and prompt.strip():
                values.append(prompt.strip())
        return values


def _with_members(evaluators: Any) -> Iterator[Any]:
    """Each evaluator, then the members of a composite at any depth: their prompt files are
    read too, and an upgrade to an assert-set refers to them."""
    for evaluator in evaluators:
        yield evaluator
        members = evaluator.get("evaluators") if isinstance(evaluator, dict) else None
        if evaluator.get("type") == "composite" and isinstance(members, list):
            yield from _with_members(members)

"""A suite as chat JSONL: one `{"messages": [...]}` line per test, as OpenAI's fine-tuning and
Hugging Face's chat datasets read them (docs/exports.md, "Chat JSONL").

The line holds what the model receives and, last, the expected output as assistant messages
(a conversation: each turn's input and expected output in order). Grading, metadata and the
other fields have no place in it: each is named in a warning.
"""

from __future__ import annotations

import json
from typing import Any

from ...formatting.workspace_files import FileSource
from .chat_messages import MessageWriter
from .portable import PortableSuite, PortableTest

LEFT_OUT = "chat JSONL has no place for it; left out"


def chat_jsonl(suite: PortableSuite, files: FileSource) -> str:
    """The chat JSONL text of `suite`, one line per test; warnings go to `suite.warnings`."""
    warnings = suite.warnings
    where = ["the suite's defaults"]
    writer = MessageWriter(
        suite.path, files, lambda name, message: warnings.add(where[0], name, message)
    )
    for key in suite.other:
        warnings.add("the suite", str(key), LEFT_OUT)
    if suite.default_asserts:
        warnings.add(where[0], "assert", LEFT_OUT)
    lines = []
    for test in suite.tests:
        where[0] = test.where
        lines.append(
            json.dumps({"messages": _messages(test, writer, suite)}, ensure_ascii=False) + "\n"
        )
    return "".join(lines)


def _messages(test: PortableTest, writer: MessageWriter, suite: PortableSuite) -> list[Any]:
    warnings = suite.warnings
    messages = writer.messages(test.input, "input")
    for name, present in (("assert", test.asserts), ("criteria", test.criteria.strip())):
        if present:
            warnings.add(test.where, name, LEFT_OUT)
    for key in test.other:
        warnings.add(test.where, str(key), LEFT_OUT)
    if not test.turns:
        expected = writer.text_or_messages(test.expected, "assistant", "expected_output")
        if not expected:
            warnings.add(test.where, "expected_output", "none, so the line ends with the input")
        return [*messages, *expected]
    for index, turn in enumerate(test.turns):
        field = f"turns[{index}]"
        messages += writer.text_or_messages(turn.get("input"), "user", f"{field}.input")
        expected = writer.text_or_messages(
            turn.get("expected_output"), "assistant", f"{field}.expected_output"
        )
        if not expected:
            warnings.add(test.where, f"{field}.expected_output", "none, so this turn has no answer")
        messages += expected
        for key in turn:
            if key not in ("input", "expected_output"):
                warnings.add(test.where, f"{field}.{key}", LEFT_OUT)
    return messages

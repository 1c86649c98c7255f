"""Reading text out of messages, and the words the rules weigh (docs/user-guide.md, "Lint
rules")."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

_WORD = re.compile(r"\w+")

# Words that say nothing a judge can check on their own ("is good", "correct and helpful").
VAGUE_WORDS = frozenset(
    [
        "good",
        "great",
        "nice",
        "fine",
        "ok",
        "okay",
        "correct",
        "correctly",
        "right",
        "accurate",
        "accurately",
        "appropriate",
        "appropriately",
        "helpful",
        "relevant",
        "reasonable",
        "sensible",
        "proper",
        "properly",
        "clear",
        "clearly",
        "concise",
        "quality",
        "high",
        "better",
        "best",
        "well",
        "useful",
        "adequate",
        "adequately",
        "acceptable",
        "satisfactory",
        "complete",
        "completely",
        "sufficient",
        "detailed",
        "thorough",
        "overall",
        "generally",
    ]
)
# Words that carry no meaning of their own; a rubric of vague words and these is vague.
FILLER_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "is",
        "are",
        "be",
        "been",
        "being",
        "should",
        "must",
        "shall",
        "will",
        "would",
        "can",
        "could",
        "it",
        "its",
        "this",
        "that",
        "and",
        "or",
        "but",
        "very",
        "really",
        "quite",
        "somewhat",
        "answer",
        "answers",
        "response",
        "responses",
        "reply",
        "output",
        "model",
        "assistant",
        "agent",
        "of",
        "to",
        "in",
        "on",
        "for",
        "with",
        "as",
        "by",
        "at",
        "from",
    ]
)
# A rubric under this many characters (stripped) cannot say what it checks.
MIN_RUBRIC_CHARACTERS = 12


def words(text: str) -> list[str]:
    """The words of `text`, case-folded: what the answer and duplicate rules compare."""
    return _WORD.findall(text.casefold())


def message_texts(message: Mapping[Any, Any]) -> Iterator[str]:
    """The text a message's content holds: the string, or each text block and bare string of a
    list. Files, tool calls and other blocks are not text."""
    content = message.get("content")
    if isinstance(content, str):
        yield content
    elif isinstance(content, list):
        for item in content:
            if isinstance(item, str):
                yield item
            elif isinstance(item, Mapping) and item.get("type") == "text":
                value = item.get("value", item.get("text"))
                if isinstance(value, str):
                    yield value


def file_values(message: Mapping[Any, Any]) -> Iterator[str]:
    """The workspace files a message's file blocks name."""
    content = message.get("content")
    if isinstance(content, list):
        for item in content:
            if isinstance(item, Mapping) and item.get("type") == "file":
                value = item.get("value")
                if isinstance(value, str) and value.strip():
                    yield value


def is_vague(text: str) -> bool:
    """Whether a rubric is too short or made only of vague and filler words."""
    stripped = text.strip()
    if len(stripped) < MIN_RUBRIC_CHARACTERS:
        return True
    found = words(stripped)
    return bool(found) and all(word in VAGUE_WORDS or word in FILLER_WORDS for word in found)

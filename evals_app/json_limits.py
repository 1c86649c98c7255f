"""JSON from outside (request bodies, the editor's hidden fields, the admin): nesting is bounded,
and no string holds what text cannot store.

Python's `json` module recurses once per level of nesting, so a few thousand `[` in a request
would end in RecursionError (a 500). Text nested deeper than MAX_JSON_DEPTH is refused before
it is parsed: no case needs more, since the YAML reader refuses files nested deeper than that.

JSON escapes can spell two things no column stores: a lone surrogate (`"\\ud800"`, half of a
character, which cannot be written as UTF-8 to any database or page) and NUL (`"\\u0000"`, which
PostgreSQL text cannot hold). Both are refused, naming the field, as agentv_web/nul_characters.py
refuses NUL in query strings and forms.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .eval_files.json_text import TYPED_KEYS
from .eval_files.yaml_loader import MAX_DEPTH

MAX_JSON_DEPTH = MAX_DEPTH

# What the depth scan looks at; everything else is skipped at C speed by the regex engine.
_STRUCTURE = re.compile(r'[\[\]{}"\\]')
# JSON text that may spell NUL or a surrogate (or hold a raw one): only then are the parsed
# strings walked. A valid surrogate pair matches too, and the walk finds nothing wrong.
_MAY_HOLD_UNSTORABLE = re.compile(r"\\u(?:0000|[dD][89a-fA-F])|[\x00\ud800-\udfff]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


class UnstorableText(ValueError):
    """A string holding NUL or a lone surrogate; `where` names the field that held it."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}" if where else problem)
        self.where = where
        self.problem = problem


class JSONTooDeep(ValueError):
    """JSON text nested deeper than the limit; `where` names the field that held it."""

    def __init__(self, limit: int, where: str = "") -> None:
        prefix = f"{where}: " if where else ""
        super().__init__(f"{prefix}JSON nested deeper than the limit of {limit} levels")
        self.limit = limit


def check_json_depth(text: str, limit: int = MAX_JSON_DEPTH) -> None:
    """Raise JSONTooDeep when the arrays and objects of `text` nest deeper than `limit`.

    Linear in the length of `text`; brackets inside strings do not count. Text that is not
    JSON at all is left to the parser to refuse.
    """
    depth = 0
    in_string = False
    escaped_at = -1  # the position of the character a backslash escapes, inside a string
    for match in _STRUCTURE.finditer(text):
        char, at = match.group(), match.start()
        if at == escaped_at:
            continue
        if char == "\\":
            escaped_at = at + 1
        elif char == '"':
            in_string = not in_string
        elif in_string:
            continue
        elif char in "[{":
            depth += 1
            if depth > limit:
                raise JSONTooDeep(limit)
        else:
            depth -= 1


def text_problem(text: str) -> str | None:
    """What makes `text` unstorable (a NUL or a lone surrogate), or None."""
    if "\x00" in text:
        return "text cannot hold NUL characters."
    if _SURROGATE.search(text):
        # After parsing, a valid pair is one character: any surrogate left is half of one.
        return "text cannot hold a lone surrogate (half of a UTF-16 character, e.g. \\ud800)."
    return None


def check_text(value: Any, where: str = "") -> None:
    """Raise UnstorableText naming the first string of parsed JSON `value` (key or value) that
    holds NUL or a lone surrogate, as a path such as `document.input[0].content`."""
    if isinstance(value, str):
        problem = text_problem(value)
        if problem is not None:
            raise UnstorableText(where or "the text", problem)
    elif isinstance(value, dict):
        for key, item in value.items():
            inside = f"{where}.{key}" if where else str(key)
            # The app's own tag for keys that are not strings (eval_files/json_text.py) is
            # decoded, never stored as text: its NUL is how it can never be a real key.
            if key != TYPED_KEYS and isinstance(key, str) and (problem := text_problem(key)):
                raise UnstorableText(f"{where or 'the object'} (a key)", problem)
            check_text(item, inside)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_text(item, f"{where}[{index}]")


def load_json(text: str | bytes, limit: int = MAX_JSON_DEPTH, where: str = "") -> Any:
    """`json.loads(text)`, refusing text nested deeper than `limit` (JSONTooDeep) and strings
    that hold NUL or a lone surrogate (UnstorableText, naming the field under `where`).

    Raises ValueError (json.JSONDecodeError, JSONTooDeep or UnstorableText) for text that is not
    usable JSON; bytes must be UTF-8.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8")  # UnicodeDecodeError is a ValueError too
    check_json_depth(text, limit)
    value = json.loads(text)
    if _MAY_HOLD_UNSTORABLE.search(text):
        check_text(value, where)
    return value

"""JSON from outside (request bodies, the editor's hidden fields, the admin): nesting is bounded.

Python's `json` module recurses once per level of nesting, so a few thousand `[` in a request
would end in RecursionError (a 500). Text nested deeper than MAX_JSON_DEPTH is refused before
it is parsed: no case needs more, since the YAML reader refuses files nested deeper than that.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .eval_files.yaml_loader import MAX_DEPTH

MAX_JSON_DEPTH = MAX_DEPTH

# What the depth scan looks at; everything else is skipped at C speed by the regex engine.
_STRUCTURE = re.compile(r'[\[\]{}"\\]')


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


def load_json(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> Any:
    """`json.loads(text)`, refusing text nested deeper than `limit` (JSONTooDeep).

    Raises ValueError (json.JSONDecodeError or JSONTooDeep) for text that is not usable JSON;
    bytes must be UTF-8.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8")  # UnicodeDecodeError is a ValueError too
    check_json_depth(text, limit)
    return json.loads(text)

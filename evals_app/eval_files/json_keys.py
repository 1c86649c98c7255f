"""A case's YAML mapping as plain JSON and back, for the API (docs/api.md).

YAML keys may be numbers, booleans or null (`score_ranges: {0: …}`); JSON keys are strings.
Such a key is given as its JSON text (`0` → `"0"`, `true` → `"true"`, `null` → `"null"`), and
a document sent back gets each key's type from the stored case at the same place (the same
keys and list positions), so reading a case and sending it back changes nothing. A mapping
holding both `0` and `"0"` cannot be given as JSON at all: KeyCollision.
"""

from __future__ import annotations

import json
from typing import Any


class KeyCollision(ValueError):
    """Two keys of one mapping would be the same JSON key."""


def with_string_keys(value: Any, where: str = "") -> Any:
    """`value` with every mapping key that is not a string replaced by its JSON text.

    Raises KeyCollision (naming the field) when two keys of one mapping would become one.
    """
    if isinstance(value, list):
        return [with_string_keys(item, f"{where}[{index}]") for index, item in enumerate(value)]
    if not isinstance(value, dict):
        return value
    converted: dict[str, Any] = {}
    for key, item in value.items():
        text = key_text(key)
        if text in converted:
            field = where or "the case"
            raise KeyCollision(
                f"{field}: two keys of one mapping are both {text!r} in JSON "
                "(one a string, one not); edit the case in the browser or the file"
            )
        converted[text] = with_string_keys(item, f"{where}.{text}" if where else text)
    return converted


def with_keys_typed_as(value: Any, stored: Any) -> Any:
    """`value` (plain JSON) with each string key that stands, at the same place in `stored`,
    for a key that is not a string (its JSON text) given that key back."""
    if isinstance(value, list):
        stored_items = stored if isinstance(stored, list) else []
        return [
            with_keys_typed_as(item, stored_items[index] if index < len(stored_items) else None)
            for index, item in enumerate(value)
        ]
    if not isinstance(value, dict):
        return value
    stored_map = stored if isinstance(stored, dict) else {}
    # Keys of the stored mapping that are not strings, by their JSON text; a string key that
    # is itself in the stored mapping stays a string.
    typed = {key_text(key): key for key in stored_map if type(key) is not str}
    typed_back: dict[Any, Any] = {}
    for key, item in value.items():
        new_key = typed.get(key, key) if key not in stored_map else key
        typed_back[new_key] = with_keys_typed_as(item, stored_map.get(new_key))
    return typed_back


def key_text(key: Any) -> str:
    """A mapping key as a JSON object key: strings as they are, other scalars as JSON."""
    if type(key) is str:
        return key
    return json.dumps(key)

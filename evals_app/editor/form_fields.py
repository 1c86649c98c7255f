"""Reading the case editor's form and reordering what it lists: shared by the drafts of a case
(`case_drafts`) and of a today's test's other parts (`test_drafts`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..eval_files.json_text import decode_json
from ..json_limits import UnstorableText, check_text
from ..request_numbers import parse_number

# (field name, message) for each value of the form that cannot be saved.
Problems = list[tuple[str, str]]


class DraftFormError(ValueError):
    """The posted form is not one the editor produced (a field missing or malformed)."""


def form_text(value: str) -> str:
    """A text field's value as typed: browsers submit text areas with CRLF line ends."""
    return value.replace("\r\n", "\n")


def form_integer(value: str, name: str) -> int:
    """A whole number the editor wrote into the form."""
    number = parse_number(value)
    if number is None:
        raise DraftFormError(f"{name}: {value!r} is not a number")
    return number


def form_count(form: Mapping[str, str], name: str, limit: int) -> int:
    """How many items of a list the form holds, within a bound, so that a hostile request
    cannot make the server loop for long."""
    count = form_integer(form.get(name, "0"), name)
    if not 0 <= count <= limit:
        raise DraftFormError(f"{name}: {count} is outside 0..{limit}")
    return count


def form_meta(form: Mapping[str, str], name: str) -> dict[str, Any]:
    """A hidden `-meta` field: a JSON object (typed keys kept), empty when the field is."""
    raw = form.get(name, "")
    try:
        meta = decode_json(raw) if raw else {}
    except (ValueError, RecursionError):
        raise DraftFormError(f"{name}: not JSON") from None
    if not isinstance(meta, dict):
        raise DraftFormError(f"{name}: not a JSON object")
    return meta


def item_meta(form: Mapping[str, str], name: str) -> dict[str, Any]:
    """The hidden `-meta` field of an item (a turn, a block, an assert, …): `form_meta` with
    the item's unknown keys (`extra`) and the order of all its keys (`key_order`)."""
    meta = form_meta(form, name)
    extra = meta.setdefault("extra", {})
    key_order = meta.setdefault("key_order", [])
    if not isinstance(extra, dict) or not isinstance(key_order, list):
        raise DraftFormError(f"{name}: malformed")
    return meta


def json_text(value: Any) -> str:
    """A value as the editor shows it in a JSON text area."""
    return json.dumps(value, ensure_ascii=False, indent=2)


def json_value(text: str, name: str, problems: Problems, original: Any = None) -> Any:
    """The value of a JSON text area (None when empty); JSON that does not parse is added to
    `problems`. While the text is `original`'s, `original` itself (keys JSON cannot hold, such
    as numbers, stay what they were)."""
    if original is not None and text == json_text(original):
        return original
    if not text.strip():
        return None
    try:
        value = json.loads(text)
        check_text(value)  # a `\ud800` or `\u0000` typed here could be neither shown nor stored
        return value
    except UnstorableText as error:
        problems.append((name, str(error)))
    except ValueError as error:
        problems.append((name, f"not valid JSON ({error})"))
    except RecursionError:
        problems.append((name, "JSON nested too deeply"))
    return None


def item_index(value: str, items: list[Any]) -> int:
    """The position an editor action names, which must be one of `items`."""
    index = int(value)
    if not 0 <= index < len(items):
        raise IndexError(index)
    return index


def swap(items: list[Any], position: int, direction: str) -> int:
    """Move the item one place up or down (staying put at either end); its new position."""
    if direction not in ("up", "down"):
        raise ValueError(direction)
    target = position - 1 if direction == "up" else position + 1
    if not 0 <= target < len(items):
        return position
    items[position], items[target] = items[target], items[position]
    return target


def move_focus(prefix: str, position: int, count: int, direction: str) -> str:
    """The moved item's button to focus: the same direction again, unless it reached the end
    (that button is then disabled, and a disabled button cannot hold the focus)."""
    at_end = position == (0 if direction == "up" else count - 1)
    if at_end and count > 1:
        direction = "down" if direction == "up" else "up"
    return f"{prefix}-move-{direction}"

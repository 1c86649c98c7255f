"""Keeping a YAML mapping's keys, known and unknown, in the order the author wrote them."""

from __future__ import annotations

from typing import Any


def ordered_mapping(
    known: dict[str, Any], extra: dict[str, Any], key_order: list[str]
) -> dict[str, Any]:
    """Known and unknown keys together, in the original order; new keys after.

    A known key whose value is None is written only if the source had it (`key: null`).
    """
    if not extra and key_order == list(known):
        return dict(known)  # nearly every message and block: exactly the known keys, in order
    present = {key: value for key, value in known.items() if value is not None or key in key_order}
    result: dict[str, Any] = {}
    for key in key_order:
        if key in present:
            result[key] = present[key]
        elif key in extra:
            result[key] = extra[key]
    for source in (present, extra):
        for key, value in source.items():
            result.setdefault(key, value)
    return result


def split_mapping(data: dict[str, Any], known: tuple[str, ...]) -> tuple[dict[str, Any], list[str]]:
    """The unknown keys of a mapping, and the order of all its keys."""
    return {key: value for key, value in data.items() if key not in known}, list(data)

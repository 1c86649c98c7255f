"""Template filters of the case editor."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def lookup(mapping: dict[str, Any] | None, key: str) -> Any:
    """`mapping[key]`, or None (templates cannot index a dict with a variable)."""
    return (mapping or {}).get(key)

"""Template filters of the case editor."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from ..eval_files.dialects import ROLES

register = template.Library()


@register.filter
def lookup(mapping: dict[str, Any] | None, key: str) -> Any:
    """`mapping[key]`, or None (templates cannot index a dict with a variable)."""
    return (mapping or {}).get(key)


@register.simple_tag
def role_options(selected: str) -> SafeString:
    """The `<option>`s of a turn's role select, `selected` chosen: built once per role, since
    the editor of a long case shows one select per turn."""
    return _ROLE_OPTIONS.get(selected) or _options(selected)


def _options(selected: str) -> SafeString:
    rows = ((role, " selected" if role == selected else "", role.title()) for role in ROLES)
    return format_html_join("", '<option value="{}"{}>{}</option>', rows)


_ROLE_OPTIONS: dict[str, SafeString] = {role: _options(role) for role in ROLES}

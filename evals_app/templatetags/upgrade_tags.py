"""Template filters of the upgrade page."""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

register = template.Library()


@register.filter
def code_spans(text: str) -> SafeString:
    """`text` with each `quoted` part as <code>, the rest escaped: the upgrade's changes and
    notes quote keys as the command line prints them."""
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: no code, only text
        return format_html("{}", text)
    return format_html_join(
        "",
        "{}",
        (
            (format_html("<code>{}</code>", part) if index % 2 else part,)
            for index, part in enumerate(parts)
        ),
    )

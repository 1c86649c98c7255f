"""Reading a page's form as a browser would send it, to post it back unchanged or changed."""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser


def form_fields(html: str, chosen: str | Callable[[str], bool]) -> dict[str, str]:
    """The fields of the form with the id `chosen` (or of the forms whose id it accepts), with
    the values a browser would send unchanged: text boxes, hidden and checked inputs, chosen
    options (the first when none is marked). Submit buttons are left out."""
    if isinstance(chosen, str):
        form_id = chosen
        chosen = form_id.__eq__
    parser = _FormFields(chosen)
    parser.feed(html)
    return dict(parser.fields)


class _FormFields(HTMLParser):
    def __init__(self, chosen: Callable[[str], bool]) -> None:
        super().__init__()
        self._chosen = chosen
        self.fields: list[tuple[str, str]] = []
        self._textarea: str | None = None
        self._text = ""
        self._select: str | None = None
        self._options: list[tuple[str, bool]] = []
        self._in_form = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        if tag == "form" and self._chosen(attributes.get("id", "")):
            self._in_form = True
        if not self._in_form or "name" not in attributes and tag != "option":
            return
        name = attributes.get("name", "")
        if tag == "input":
            kind = attributes.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in attributes:
                return
            if kind not in ("submit", "button", "file"):
                checkable = kind in ("checkbox", "radio")
                self.fields.append((name, attributes.get("value", "on" if checkable else "")))
        elif tag == "textarea":
            self._textarea, self._text = name, ""
        elif tag == "select":
            self._select, self._options = name, []
        elif tag == "option" and self._select is not None:
            self._options.append((attributes.get("value", ""), "selected" in attributes))

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._in_form = False
        elif tag == "textarea" and self._textarea is not None:
            # A newline right after <textarea> is not part of its value (HTML spec).
            self.fields.append((self._textarea, self._text.removeprefix("\n")))
            self._textarea = None
        elif tag == "select" and self._select is not None:
            chosen = [value for value, selected in self._options if selected]
            if chosen or self._options:
                self.fields.append((self._select, chosen[0] if chosen else self._options[0][0]))
            self._select = None

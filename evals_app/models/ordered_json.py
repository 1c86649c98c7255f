"""A JSON column that keeps mapping key order, and keys that are not strings, on every database."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.forms.fields import InvalidJSONInput

from ..eval_files.json_text import decode_json, encode_json, tag_typed_keys
from ..json_limits import check_json_depth

# What a person reads and edits (the admin): indented, keys in their stored order; a mapping
# with keys that are not strings is shown tagged, as it is stored, so that saving keeps it.
_READABLE = json.JSONEncoder(ensure_ascii=False, indent=2)


def readable_json(value: Any) -> str:
    """`value` as indented JSON, keys in order: how the admin shows a stored JSON value."""
    return _READABLE.encode(tag_typed_keys(value))


def load_json(text: str | bytes) -> Any:
    """JSON typed in by a person, nesting bounded (JSONTooDeep), tagged mappings untagged."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    check_json_depth(text)
    try:
        return decode_json(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None


class OrderedJSONField(models.TextField):
    """JSON stored as text. PostgreSQL's `jsonb` sorts keys; users' YAML must keep its order."""

    # What django-stubs reads as the field's Python type: any JSON value.
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    description = "JSON text, key order kept"
    # `{}` and `[]` are values (a mapping without keys), not a field left blank.
    empty_values = [None, ""]

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> Any:
        return None if value is None else decode_json(value)

    def to_python(self, value: Any) -> Any:
        # A string is JSON text (from a serialized dump): the field never holds a bare string,
        # which is why its form field refuses one.
        if isinstance(value, str):
            try:
                return load_json(value)
            except ValueError as error:
                raise ValidationError(f"Not valid JSON: {error}", code="invalid") from None
        return value

    def get_prep_value(self, value: Any) -> str | None:
        if value is None:
            return None
        return encode_json(value)

    def value_to_string(self, obj: models.Model) -> str:
        return self.get_prep_value(self.value_from_object(obj)) or ""

    def formfield(self, **kwargs: Any) -> Any:
        """A text box of JSON (shown indented, checked when sent), not of Python's repr."""
        return super().formfield(**{"form_class": OrderedJSONFormField, **kwargs})


class OrderedJSONFormField(forms.JSONField):
    """JSON typed in a text box: shown indented with its keys in order, checked when sent."""

    # `[]` and `{}` are values of these fields, not "nothing"; an empty box is.
    empty_values = [None, ""]
    default_error_messages = {"invalid": "Enter valid JSON (%(error)s)."}

    def to_python(self, value: Any) -> Any:
        if self.disabled or not isinstance(value, str):
            return value
        if value in self.empty_values:
            return None
        try:
            converted = load_json(value)
        except ValueError as error:
            raise ValidationError(
                self.error_messages["invalid"], code="invalid", params={"error": error}
            ) from None
        if isinstance(converted, str):
            raise ValidationError(
                "Enter a JSON object, array, number or null; a bare string is not a value "
                "of this field.",
                code="invalid",
            )
        return converted

    def bound_data(self, data: Any, initial: Any) -> Any:
        if self.disabled:
            return initial
        if data is None:
            return None
        try:
            return load_json(data)
        except ValueError:
            return InvalidJSONInput(data)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, InvalidJSONInput):
            return value
        return readable_json(value)

    def has_changed(self, initial: Any, data: Any) -> bool:
        if self.disabled:
            return False
        try:
            value = self.to_python(data)
        except ValidationError:
            return True
        # Unlike Django's JSONField, a change of key order is a change.
        return encode_json(initial) != encode_json(value)

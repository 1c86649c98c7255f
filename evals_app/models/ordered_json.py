"""A JSON column that keeps mapping key order, and keys that are not strings, on every database."""

from __future__ import annotations

from typing import Any

from django.db import models

from ..eval_files.json_text import decode_json, encode_json


class OrderedJSONField(models.TextField):
    """JSON stored as text. PostgreSQL's `jsonb` sorts keys; users' YAML must keep its order."""

    # What django-stubs reads as the field's Python type: any JSON value.
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    description = "JSON text, key order kept"

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> Any:
        return None if value is None else decode_json(value)

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str):
            return decode_json(value)
        return value

    def get_prep_value(self, value: Any) -> str | None:
        if value is None:
            return None
        return encode_json(value)

    def value_to_string(self, obj: models.Model) -> str:
        return self.get_prep_value(self.value_from_object(obj)) or ""

"""Inserting (and updating) many rows at once, for imports of thousands of cases.

`bulk_create` prepares every field of every object in Python, which costs more than everything
else an import does once it writes a few hundred thousand turns and blocks. `insert_rows` sends
plain tuples instead and fills the columns it is not given as `bulk_create` would: with their
defaults (`auto_now` fields get the current time).

Rows go in many to a statement, not one `executemany` statement each: on SQLite each statement
that fires the search index's trigger costs the FTS5 table a savepoint of its own, and the
text-heavy import spent twice as long indexing its cases one statement per case
(docs/performance.md, "What makes it fast").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Field, Model

from ...models.ordered_json import OrderedJSONField

ROWS_PER_STATEMENT = 500


def insert_rows(model: type[Model], names: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Insert `rows` into `model`'s table, each the values of the fields `names` in order.

    Values as the database takes them: strings, numbers, booleans, and JSON as text
    (`json_text`); no primary keys.
    """
    meta = model._meta
    given = [_concrete_field(model, name) for name in names]
    given_names = {field.attname for field in given}
    missing = [
        field
        for field in meta.concrete_fields
        if not field.primary_key and field.attname not in given_names
    ]
    blank = model()
    filled = tuple(
        field.get_db_prep_save(field.pre_save(blank, add=True), connection) for field in missing
    )
    quote = connection.ops.quote_name
    columns = ", ".join(quote(str(field.column)) for field in [*given, *missing])
    width = len(given) + len(missing)
    row_placeholders = "(" + ", ".join(["%s"] * width) + ")"
    per_statement = _rows_per_statement(width)
    params = [(*row, *filled) for row in rows]
    with connection.cursor() as cursor:
        for start in range(0, len(params), per_statement):
            chunk = params[start : start + per_statement]
            values = ", ".join([row_placeholders] * len(chunk))
            cursor.execute(
                f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES {values}",
                [value for row in chunk for value in row],
            )


def _rows_per_statement(width: int) -> int:
    """As many rows of `width` values as one statement may carry (SQLite: 999 parameters)."""
    limit = connection.features.max_query_params
    return max(1, min(ROWS_PER_STATEMENT, limit // width if limit else ROWS_PER_STATEMENT))


def update_rows(model: type[Model], names: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Set the fields `names` of many rows of `model`'s table, each row the values in order
    then its primary key (values as `insert_rows` takes them)."""
    meta = model._meta
    quote = connection.ops.quote_name
    columns = ", ".join(f"{quote(str(_concrete_field(model, name).column))} = %s" for name in names)
    key = quote(str(_concrete_field(model, "pk" if meta.pk is None else meta.pk.name).column))
    sql = f"UPDATE {quote(meta.db_table)} SET {columns} WHERE {key} = %s"
    params = [tuple(row) for row in rows]
    if params:
        with connection.cursor() as cursor:
            cursor.executemany(sql, params)


def _concrete_field(model: type[Model], name: str) -> Field[Any, Any]:
    field = model._meta.get_field(name)
    if not isinstance(field, Field) or not field.concrete:
        raise ValueError(f"{model.__name__}.{name} is not a column")
    return field


def json_text(value: Any) -> str:
    """A value of an OrderedJSONField as the column stores it."""
    if not value and isinstance(value, dict):
        return "{}"
    return str(_JSON.get_prep_value(value))


_JSON = OrderedJSONField()

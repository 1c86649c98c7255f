"""Braintrust dataset records as exported (docs/imports.md)."""

from __future__ import annotations

from typing import Any

from .base import Mapped, Row, TestBuilder, generated_id
from .dataset_records import expected_value, input_messages, keep_rest
from .row_sources import RowSource


class Braintrust(RowSource):
    """Braintrust dataset records: `input`, `expected`, `metadata`, `tags`, `id`; the
    bookkeeping (`_xact_id`, `created`, `span_id`, …) is dropped and counted."""

    name = "braintrust"
    label = "Braintrust dataset"
    BOOKKEEPING = frozenset(
        {
            "_xact_id",
            "_pagination_key",
            "_object_delete",
            "created",
            "span_id",
            "root_span_id",
            "span_parents",
            "project_id",
            "dataset_id",
            "origin",
            "is_root",
        }
    )

    def looks_like(self, record: dict[str, Any]) -> bool:
        return "input" in record and ("expected" in record or "_xact_id" in record)

    def map(self, row: Row) -> Mapped:
        builder = TestBuilder(row, self.name)
        data = row.data
        builder.set_id(data.get("id"), generated_id(row.file, row.row))
        builder.vars["input"] = input_messages(builder, "input", data.get("input"))
        if data.get("expected") is not None:
            builder.vars["expected_output"] = expected_value(data["expected"])
        if isinstance(data.get("metadata"), dict):
            builder.metadata.update(data["metadata"])
        if data.get("tags"):
            builder.metadata["tags"] = data["tags"]
        dropped = sorted(key for key in data if key in self.BOOKKEEPING)
        if dropped:
            builder.metadata["braintrust_bookkeeping_dropped"] = dropped
        keep_rest(builder, data, {"id", "input", "expected", "metadata", "tags", *self.BOOKKEEPING})
        return builder.build()

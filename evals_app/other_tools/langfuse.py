"""Langfuse dataset items as exported (docs/imports.md)."""

from __future__ import annotations

from typing import Any

from .base import Mapped, Row, TestBuilder, generated_id
from .dataset_records import expected_value, input_messages, keep_rest
from .row_sources import RowSource


class Langfuse(RowSource):
    """Langfuse dataset items: `input`, `expectedOutput`, `metadata`, `status`, `id`,
    `sourceTraceId`, `sourceObservationId`. Archived items are not tests: skipped, warned."""

    name = "langfuse"
    label = "Langfuse dataset"
    BOOKKEEPING = (
        "datasetId",
        "datasetName",
        "sourceTraceId",
        "sourceObservationId",
        "createdAt",
        "updatedAt",
        "status",
    )

    def looks_like(self, record: dict[str, Any]) -> bool:
        keys = {"expectedOutput", "sourceTraceId", "datasetId", "datasetName"}
        return "input" in record and bool(keys & set(record))

    def map(self, row: Row) -> Mapped:
        builder = TestBuilder(row, self.name)
        data = row.data
        builder.set_id(data.get("id"), generated_id(row.file, row.row))
        builder.vars["input"] = input_messages(builder, "input", data.get("input"))
        if data.get("expectedOutput") is not None:
            builder.vars["expected_output"] = expected_value(data["expectedOutput"])
        if isinstance(data.get("metadata"), dict):
            builder.metadata.update(data["metadata"])
        langfuse = {key: data[key] for key in self.BOOKKEEPING if data.get(key) is not None}
        if langfuse:
            builder.metadata["langfuse"] = langfuse
        keep_rest(builder, data, {"id", "input", "expectedOutput", "metadata", *self.BOOKKEEPING})
        return builder.build()

    @staticmethod
    def archived(row: Row) -> bool:
        """Whether the item is archived (Langfuse leaves those out of runs)."""
        return row.data.get("status") == "ARCHIVED"

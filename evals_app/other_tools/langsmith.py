"""LangSmith dataset examples as exported (docs/imports.md)."""

from __future__ import annotations

from typing import Any

from .base import Mapped, Row, TestBuilder, generated_id
from .dataset_records import expected_value, input_messages, keep_rest
from .row_sources import RowSource


class LangSmith(RowSource):
    """LangSmith examples: `inputs`, `outputs`, `metadata`, `split`, `id`, `dataset_id`,
    `source_run_id`, `created_at`."""

    name = "langsmith"
    label = "LangSmith dataset"
    BOOKKEEPING = ("dataset_id", "created_at", "modified_at", "source_run_id", "split")

    def looks_like(self, record: dict[str, Any]) -> bool:
        return isinstance(record.get("inputs"), dict)

    def map(self, row: Row) -> Mapped:
        builder = TestBuilder(row, self.name)
        data = row.data
        builder.set_id(data.get("id"), generated_id(row.file, row.row))
        builder.vars["input"] = input_messages(builder, "inputs", data.get("inputs"))
        if data.get("outputs") not in (None, {}):
            builder.vars["expected_output"] = expected_value(data["outputs"])
        if isinstance(data.get("metadata"), dict):
            builder.metadata.update(data["metadata"])
        langsmith = {key: data[key] for key in self.BOOKKEEPING if data.get(key) is not None}
        if langsmith:
            builder.metadata["langsmith"] = langsmith
        keep_rest(builder, data, {"id", "inputs", "outputs", "metadata", *self.BOOKKEEPING})
        return builder.build()

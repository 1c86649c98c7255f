"""What the dataset formats share: one record per JSON line (or a JSON list, or CSV rows), one
test per record, recognised by the keys of its first record."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from .base import Mapped, Reading, Row, SourceFiles
from .records import csv_rows, first_record, json_rows


class RowSource(ABC):
    """A dataset whose files hold one record per test: subclasses say which keys their
    records have (`looks_like`) and how one maps (`map`)."""

    name = ""
    label = ""
    reads_csv = False

    @abstractmethod
    def looks_like(self, record: dict[str, Any]) -> bool:
        """Whether a record is one of this format's."""

    def detect(self, path: str, text: str) -> bool:
        """Whether the file's first record looks like one of this format's."""
        if path.endswith(".csv"):
            return False
        record = first_record(path, text)
        return isinstance(record, dict) and self.looks_like(record)

    def read(self, path: str, files: SourceFiles) -> Reading:
        """The file's records (JSON lines, a JSON list, or CSV rows for formats saved so)."""
        text = files.get(path) or ""
        if path.endswith(".csv") and self.reads_csv:
            return Reading(csv_rows(path, text))
        return Reading(json_rows(path, text))

    @abstractmethod
    def map(self, row: Row) -> Mapped:
        """The test of one record."""

    def consumed(self, path: str, files: SourceFiles) -> set[str]:
        """A dataset file reads no other file."""
        return set()

"""Inspect AI datasets: `Sample` records (`input` as text or chat messages, `target`, `choices`,
`id`, `metadata`, `files`, `sandbox`, `setup`) in JSON lines, a JSON list or CSV."""

from __future__ import annotations

import string
from typing import Any

from .base import Mapped, Row, TestBuilder, generated_id
from .messages import chat_messages
from .records import csv_header
from .row_sources import RowSource

# Inspect runs these in its own sandbox; AgentV has no equivalent for a test.
SANDBOX_FIELDS = ("files", "sandbox", "setup")


class InspectAi(RowSource):
    """Inspect AI samples (docs/imports.md, "Inspect AI")."""

    name = "inspect"
    label = "Inspect AI dataset"
    reads_csv = True

    def looks_like(self, record: dict[str, Any]) -> bool:
        return "input" in record and ("target" in record or "choices" in record)

    def detect(self, path: str, text: str) -> bool:
        if path.endswith(".csv"):
            header = set(csv_header(text))
            return "input" in header and "target" in header
        return super().detect(path, text)

    def map(self, row: Row) -> Mapped:
        builder = TestBuilder(row, self.name)
        data = row.data
        builder.set_id(data.get("id") or None, generated_id(row.file, row.row))
        builder.vars["input"] = chat_messages(builder, "input", data.get("input"))
        choices = data.get("choices")
        target = data.get("target")
        if isinstance(choices, list) and choices:
            builder.metadata["choices"] = choices
            lettered = "\n".join(
                f"{letter}) {choice}" for letter, choice in zip(_letters(), choices, strict=False)
            )
            _ask_with_choices(builder.vars["input"], lettered)
            letters = target if isinstance(target, list) else [target]
            picked = ", ".join(str(letter) for letter in letters)
            rubric = f"Of the choices\n{lettered}\nthe answer picks {picked}."
            builder.asserts.append({"type": "llm-rubric", "value": rubric})
            if target is not None:
                builder.vars["expected_output"] = picked
        elif isinstance(target, list):
            texts = [str(item) for item in target]
            builder.metadata["target"] = texts
            if texts:
                builder.vars["expected_output"] = texts[0]
                builder.asserts.append({"type": "contains-any", "value": texts})
        elif target not in (None, ""):
            builder.vars["expected_output"] = target
        if isinstance(data.get("metadata"), dict):
            builder.metadata.update(data["metadata"])
        for field in SANDBOX_FIELDS:
            if data.get(field) not in (None, "", [], {}):
                builder.keep_unsupported(
                    field, data[field], "Inspect's sandbox has no AgentV equivalent"
                )
        known = {"id", "input", "target", "choices", "metadata", *SANDBOX_FIELDS}
        for key, value in data.items():
            if key not in known:
                # Inspect's FieldSpec maps other fields into a sample's metadata.
                builder.metadata[key] = value
        return builder.build()


def _ask_with_choices(messages: list[dict[str, Any]], lettered: str) -> None:
    """Put the lettered choices under the question, as Inspect's multiple choice solver
    shows them to the model."""
    if messages and messages[-1]["role"] == "user" and isinstance(messages[-1]["content"], str):
        messages[-1]["content"] += "\n\n" + lettered
    else:
        messages.append({"role": "user", "content": lettered})


def _letters() -> list[str]:
    return list(string.ascii_uppercase)

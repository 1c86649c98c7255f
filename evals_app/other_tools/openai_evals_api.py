"""The OpenAI Evals API's data: rows `{"item": {...}}`, graded by the eval's `testing_criteria`
(a JSON eval definition among the files: `string_check`, `text_similarity`, `label_model`,
`score_model`, `python`)."""

from __future__ import annotations

import json
import posixpath
import re
from typing import Any

from .base import (
    ImportWarning,
    Mapped,
    Reading,
    Row,
    SourceFiles,
    TestBuilder,
    generated_id,
    set_var,
)
from .messages import chat_messages, text_of
from .records import first_record, json_rows

STRING_CHECKS = {"eq": "equals", "ne": "not-equals", "like": "contains", "ilike": "icontains"}
# The item's fields that hold the input, in the order they are looked for.
INPUT_FIELDS = ("input", "messages", "question", "prompt", "query")
_ITEM = re.compile(r"{{\s*item\.([A-Za-z_][A-Za-z0-9_]*)\s*}}")
_OUTPUT = re.compile(r"{{\s*sample\.output_text\s*}}")


class OpenAiEvalsApi:
    """Evals API rows and their eval's testing criteria (docs/imports.md)."""

    name = "openai-evals-api"
    label = "OpenAI Evals API (item rows and testing criteria)"

    def detect(self, path: str, text: str) -> bool:
        record = first_record(path, text)
        return isinstance(record, dict) and isinstance(record.get("item"), dict)

    def read(self, path: str, files: SourceFiles) -> Reading:
        config_path = _definition(path, files)
        criteria: list[Any] = []
        warnings: list[ImportWarning] = []
        if config_path is None:
            message = (
                "no eval definition with testing_criteria among the files: tests are not graded"
            )
            warnings.append(ImportWarning(path, "", "testing_criteria", message))
        else:
            definition = json.loads(files.get(config_path) or "{}")
            criteria = list(definition.get("testing_criteria") or [])
        rows = [
            Row(
                row.file,
                row.row,
                row.data,
                row.line,
                {"criteria": criteria, "definition": config_path},
            )
            for row in json_rows(path, files.get(path) or "")
        ]
        return Reading(rows, warnings)

    def consumed(self, path: str, files: SourceFiles) -> set[str]:
        found = _definition(path, files)
        return {found} if found else set()

    def map(self, row: Row) -> Mapped:
        builder = TestBuilder(row, self.name)
        item = row.data["item"]
        builder.set_id(item.get("id"), generated_id(row.file, row.row))
        for key, value in item.items():
            if key == "id":
                continue
            if key in INPUT_FIELDS and "input" not in builder.vars:
                builder.vars["input"] = chat_messages(builder, f"item.{key}", value)
            else:
                set_var(builder, key, value)
        if "input" not in builder.vars:
            builder.warn("item", f"no input field ({', '.join(INPUT_FIELDS)}): vars.input is empty")
            builder.vars["input"] = []
        for index, criterion in enumerate(row.context.get("criteria") or []):
            _criterion(builder, f"testing_criteria[{index}]", criterion)
        for key, value in row.data.items():
            if key != "item":
                builder.keep_unsupported(key, value, "the Evals API keeps it beside the item")
        return builder.build()


def _criterion(builder: TestBuilder, field: str, criterion: Any) -> None:
    kind = criterion.get("type") if isinstance(criterion, dict) else None
    if kind == "string_check" and criterion.get("operation") in STRING_CHECKS:
        if not _OUTPUT.fullmatch(str(criterion.get("input", "")).strip()):
            builder.keep_unsupported(
                field, criterion, "a string check of something other than the output"
            )
            return
        value = _template(str(criterion.get("reference", "")))
        builder.asserts.append({"type": STRING_CHECKS[criterion["operation"]], "value": value})
    elif kind in ("label_model", "score_model"):
        prompt = "\n\n".join(
            text_of(message.get("content"))
            for message in criterion.get("input") or []
            if isinstance(message, dict)
        )
        rubric = _template(_OUTPUT.sub("the answer", prompt))
        if kind == "label_model" and criterion.get("passing_labels"):
            rubric += f"\n\nPassing labels: {', '.join(map(str, criterion['passing_labels']))}."
        if kind == "score_model" and criterion.get("pass_threshold") is not None:
            rubric += f"\n\nPasses at a score of {criterion['pass_threshold']} or more."
        builder.asserts.append({"type": "llm-rubric", "value": rubric})
    elif kind == "python" and isinstance(criterion.get("source"), str):
        builder.asserts.append({"type": "python", "value": criterion["source"]})
        builder.warn(
            field,
            "a python grader's grade(sample, item) is kept as AgentV's python assert: "
            "check it reads AgentV's output",
        )
    else:
        reason = (
            "text similarity scores differ from AgentV's"
            if kind == "text_similarity"
            else "no AgentV equivalent"
        )
        builder.keep_unsupported(field, criterion, reason)


def _template(text: str) -> str:
    """Evals API templates as AgentV's: `{{ item.x }}` is the variable `{{ x }}`."""
    return _ITEM.sub(lambda match: "{{ " + match.group(1) + " }}", text)


def _definition(path: str, files: SourceFiles) -> str | None:
    """The eval definition (a JSON object with `testing_criteria`) nearest the file."""
    folder = posixpath.dirname(path)
    candidates = sorted(
        (name for name in files if name.endswith(".json") and name != path),
        key=lambda name: (posixpath.dirname(name) != folder, name),
    )
    for name in candidates:
        try:
            data = json.loads(files.get(name) or "")
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("testing_criteria"), list):
            return name
    return None

"""promptfoo configs (`prompts`, `providers`, `tests`, `defaultTest`), their files of tests
(YAML, JSON, JSON lines, CSV, globs) and CSV files of tests on their own.

AgentV reads promptfoo's prompts and variables as promptfoo does (a promptfoo superset), so a
config's string prompts become the suite's `prompts` and each test keeps its `vars`.
"""

from __future__ import annotations

import fnmatch
import json
import posixpath
from typing import Any

from .agentv_asserts import mapped_assert
from .base import (
    ImportWarning,
    Mapped,
    Reading,
    Row,
    SourceError,
    SourceFiles,
    TestBuilder,
    generated_id,
)
from .promptfoo_csv import csv_test
from .records import csv_header, csv_rows, json_rows, yaml_data

CONFIG_NAMES = ("promptfooconfig.yaml", "promptfooconfig.yml", "promptfooconfig.json")
TEST_KEYS = frozenset({"description", "vars", "assert", "metadata"})
# Top-level keys of a config AgentV reads under its own (snake_case) name.
HEADER_KEYS = {"description": "description", "evaluateOptions": "evaluate_options"}


class Promptfoo:
    """promptfoo configs and test files (docs/imports.md, "promptfoo")."""

    name = "promptfoo"
    label = "promptfoo (config, tests in YAML, JSON, JSON lines or CSV)"

    def detect(self, path: str, text: str) -> bool:
        if path.endswith(".csv"):
            return bool(csv_header(text))
        if posixpath.basename(path) in CONFIG_NAMES:
            return True
        if not path.endswith((".yaml", ".yml", ".json")):
            return False
        try:
            data = yaml_data(path, text)
        except Exception:  # noqa: BLE001 - detection: a file that does not read is not one
            return False
        if isinstance(data, dict):
            return "tests" in data or (
                "prompts" in data and ("providers" in data or "defaultTest" in data)
            )
        return (
            isinstance(data, list)
            and bool(data)
            and all(
                isinstance(test, dict) and bool({"vars", "assert"} & set(test)) for test in data
            )
        )

    def read(self, path: str, files: SourceFiles) -> Reading:
        text = files.get(path) or ""
        if path.endswith(".csv"):
            return Reading(_rows(csv_rows(path, text), {"kind": "csv"}))
        data = yaml_data(path, text)
        if isinstance(data, list):
            return Reading(_rows(_listed(path, data), {"kind": "test"}))
        if not isinstance(data, dict):
            raise _not_a_config(path)
        reading = Reading([])
        self._header(path, data, files, reading)
        for entry in _entries(data.get("tests")):
            self._tests(path, entry, files, reading)
        return reading

    def consumed(self, path: str, files: SourceFiles) -> set[str]:
        if path.endswith(".csv"):
            return set()
        try:
            data = yaml_data(path, files.get(path) or "")
        except Exception:  # noqa: BLE001 - read() reports it
            return set()
        found: set[str] = set()
        if isinstance(data, dict):
            for entry in _entries(data.get("tests")):
                if isinstance(entry, str):
                    found.update(_referenced(path, entry, files))
            for prompt in _entries(data.get("prompts")):
                if isinstance(prompt, str) and prompt.startswith("file://"):
                    found.add(files.beside(path, prompt.split(":")[1].removeprefix("//")))
        return found

    def map(self, row: Row) -> Mapped:
        builder = TestBuilder(row, self.name)
        if row.context.get("kind") == "csv":
            builder.set_id(row.data.get("__id") or None, generated_id(row.file, row.row))
            csv_test(builder, {k: v for k, v in row.data.items() if k != "__id"})
            return builder.build()
        test = row.data
        builder.set_id(test.get("id"), generated_id(row.file, row.row))
        if isinstance(test.get("description"), str):
            builder.description = test["description"]
        if isinstance(test.get("vars"), dict):
            builder.vars.update(test["vars"])
        elif test.get("vars") is not None:
            builder.keep_unsupported(
                "vars", test["vars"], "variables that are not a mapping (a file of them)"
            )
        for index, entry in enumerate(_entries(test.get("assert"))):
            kept = mapped_assert(builder, f"assert[{index}]", entry)
            if kept is not None:
                builder.asserts.append(kept)
        metadata = test.get("metadata")
        if isinstance(metadata, dict):
            metadata = dict(metadata)
            conversation = metadata.pop("conversationId", None)
            if conversation is not None:
                builder.extra["conversation_id"] = conversation
            builder.metadata.update(metadata)
        for key, value in test.items():
            if key not in TEST_KEYS and key != "id":
                builder.keep_unsupported(
                    key, value, f"promptfoo's test {key!r} has no AgentV equivalent"
                )
        return builder.build()

    def _header(
        self, path: str, data: dict[str, Any], files: SourceFiles, reading: Reading
    ) -> None:
        prompts = []
        for index, prompt in enumerate(_entries(data.get("prompts"))):
            resolved = _prompt(path, prompt, files)
            if resolved is None:
                _suite_unsupported(
                    reading,
                    path,
                    f"prompts[{index}]",
                    prompt,
                    "a prompt AgentV cannot read from here (a function, or a file not given)",
                )
            else:
                prompts.append(resolved)
        if prompts:
            reading.header["prompts"] = prompts
        default = data.get("defaultTest")
        if isinstance(default, dict):
            reading.header["default_test"] = _default_test(path, default, reading)
        elif default is not None:
            _suite_unsupported(
                reading, path, "defaultTest", default, "a defaultTest file reference"
            )
        for key, value in data.items():
            if key in HEADER_KEYS:
                reading.header[HEADER_KEYS[key]] = value
            elif key not in ("prompts", "tests", "defaultTest"):
                reason = (
                    "AgentV's providers are set up in its providers.yaml"
                    if key == "providers"
                    else f"promptfoo's {key!r} has no AgentV equivalent"
                )
                _suite_unsupported(reading, path, key, value, reason)

    def _tests(self, path: str, entry: Any, files: SourceFiles, reading: Reading) -> None:
        if isinstance(entry, dict):
            reading.rows.append(Row(path, len(reading.rows) + 1, entry, None, {"kind": "test"}))
            return
        if not isinstance(entry, str):
            _suite_unsupported(reading, path, "tests", entry, "not a test or a file of tests")
            return
        reference = entry.removeprefix("file://")
        if (
            reference.endswith((".py", ".js", ".ts"))
            or ":" in reference
            or reference.endswith((".xlsx", ".xls"))
            or "#" in reference
        ):
            reason = (
                "tests made by a generator"
                if not reference.endswith((".xlsx", ".xls")) and "#" not in reference
                else "tests in a spreadsheet (XLSX)"
            )
            _suite_unsupported(
                reading, path, "tests", entry, f"{reason}: export them as CSV or JSON lines"
            )
            return
        found = sorted(_referenced(path, entry, files))
        if not found:
            reading.warnings.append(
                ImportWarning(
                    path, "", "tests", f"{entry} is not among the files: no tests made from it"
                )
            )
            return
        for name in found:
            text = files.get(name) or ""
            if name.endswith(".csv"):
                reading.rows += _rows(csv_rows(name, text), {"kind": "csv"})
            elif name.endswith(".jsonl"):
                reading.rows += _rows(json_rows(name, text), {"kind": "test"})
            else:
                listed = yaml_data(name, text)
                if not isinstance(listed, list):
                    listed = [listed]
                reading.rows += _rows(_listed(name, listed), {"kind": "test"})


def _default_test(path: str, default: dict[str, Any], reading: Reading) -> dict[str, Any]:
    """promptfoo's `defaultTest` as AgentV's `default_test`: its vars, asserts and metadata."""
    row = Row(path, 0, default, None, {"kind": "test"})
    builder = TestBuilder(row, "promptfoo")
    result: dict[str, Any] = {}
    if isinstance(default.get("vars"), dict):
        result["vars"] = default["vars"]
    asserts = [
        mapped_assert(builder, f"defaultTest.assert[{i}]", a)
        for i, a in enumerate(_entries(default.get("assert")))
    ]
    if any(item is not None for item in asserts):
        result["assert"] = [item for item in asserts if item is not None]
    if isinstance(default.get("metadata"), dict):
        result["metadata"] = default["metadata"]
    for key, value in default.items():
        if key not in ("vars", "assert", "metadata"):
            builder.keep_unsupported(
                f"defaultTest.{key}", value, f"promptfoo's {key!r} has no AgentV equivalent"
            )
    reading.unsupported += builder.unsupported
    reading.warnings += [ImportWarning(path, "", w.field, w.message) for w in builder.warnings]
    return result


def _suite_unsupported(reading: Reading, path: str, field: str, value: Any, reason: str) -> None:
    reading.unsupported.append({"field": field, "value": value, "reason": reason})
    reading.warnings.append(
        ImportWarning(
            path, "", field, f"kept in default_test.metadata.imported_unsupported: {reason}"
        )
    )


def _prompt(path: str, prompt: Any, files: SourceFiles) -> Any | None:
    """A prompt as AgentV reads it: text, a chat list, `{id, label, raw}`; a `file://` text or
    JSON chat read from the files (AgentV would look for it beside the suite)."""
    if isinstance(prompt, str) and prompt.startswith("file://"):
        reference = prompt.removeprefix("file://")
        if ":" in reference or reference.endswith((".py", ".js", ".ts")):
            return None
        text = files.get(files.beside(path, reference))
        if text is None:
            return None
        if reference.endswith(".json"):
            try:
                return json.loads(text)
            except ValueError:
                return text
        return text
    if isinstance(prompt, str | list):
        return prompt
    if isinstance(prompt, dict) and ({"raw", "prompt", "messages"} & set(prompt)):
        return prompt
    return None


def _referenced(path: str, entry: str, files: SourceFiles) -> set[str]:
    """The files a `tests` entry names (a path or a glob), read from the config's folder."""
    pattern = files.beside(path, entry.removeprefix("file://"))
    if any(char in pattern for char in "*?["):
        return {name for name in files if fnmatch.fnmatch(name, pattern)}
    return {pattern} if files.get(pattern) is not None else set()


def _listed(path: str, data: list[Any]) -> list[Row]:
    return [
        Row(path, index, item) for index, item in enumerate(data, start=1) if isinstance(item, dict)
    ]


def _rows(rows: list[Row], context: dict[str, Any]) -> list[Row]:
    return [Row(row.file, row.row, row.data, row.line, context) for row in rows]


def _entries(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _not_a_config(path: str) -> Exception:
    return SourceError("a promptfoo config must be a mapping or a list of tests", file=path)

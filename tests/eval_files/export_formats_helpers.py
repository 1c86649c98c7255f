"""Exporting a suite written in a test, the way the export service does it: the tests of the
pure mapping call these."""

from __future__ import annotations

import json
from typing import Any

import yaml

from evals_app.eval_files.export_formats import EXPORT_FORMATS, portable_suite
from evals_app.formatting.workspace_files import MappingFiles

PATH = "evals/suite.eval.yaml"


def exported(
    name: str,
    cases: list[dict[str, Any]],
    header: dict[str, Any] | None = None,
    *,
    older: bool = False,
    files: dict[str, str] | None = None,
) -> tuple[str, list[str]]:
    """The text of the suite `header` with `cases` exported as `name`, and its warnings. A
    today's suite has `prompts: ["{{ input }}"]` unless `header` says otherwise."""
    if header is None:
        header = {"prompts": ["{{ input }}"], "tests": [None] * len(cases)}
    source = MappingFiles(files or {})
    suite = portable_suite(
        PATH,
        header,
        cases,
        older=older,
        cases_key=next((key for key in ("evalcases", "tests") if key in header), None),
        files=source,
    )
    return EXPORT_FORMATS[name].write(suite, source), suite.warnings.lines


def promptfoo(cases: list[dict[str, Any]], **options: Any) -> tuple[dict[str, Any], list[str]]:
    """The promptfoo config of the suite, read back, and its warnings."""
    text, warnings = exported("promptfoo", cases, **options)
    return yaml.safe_load(text), warnings


def chat_lines(cases: list[dict[str, Any]], **options: Any) -> tuple[list[Any], list[str]]:
    """The `messages` of each chat JSONL line of the suite, and its warnings."""
    text, warnings = exported("chat-jsonl", cases, **options)
    lines = [json.loads(line) for line in text.splitlines()]
    assert all(list(line) == ["messages"] for line in lines)
    return [line["messages"] for line in lines], warnings

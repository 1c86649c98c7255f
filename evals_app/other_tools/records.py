"""Reading the records of a source file: JSON lines, a JSON list, CSV or YAML, each record with
its row and line, and every failure a SourceError naming the file and line."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from ..eval_files.errors import EvalFileError
from ..eval_files.yaml_loader import load_yaml
from .base import Row, SourceError

MAX_FIELD = 16 * 2**20  # characters of one CSV field (csv's default limit is 128 KiB)


def first_lines(text: str, count: int) -> list[str]:
    """The first `count` lines of `text`, without reading the rest (detection looks at the
    start of files that may hold a million lines)."""
    lines: list[str] = []
    start = 0
    while len(lines) < count and start < len(text):
        end = text.find("\n", start)
        if end < 0:
            end = len(text)
        lines.append(text[start:end])
        start = end + 1
    return lines


def first_record(path: str, text: str) -> Any:
    """The first record of a file, for detection; None when it does not read as one."""
    stripped = text.lstrip("\ufeff \t\r\n")
    try:
        if path.endswith(".jsonl") or (stripped.startswith("{") and "\n{" in stripped[:4096]):
            first = first_lines(stripped, 1)
            return json.loads(first[0]) if first else None
        if path.endswith(".json") or stripped.startswith(("[", "{")):
            data = json.loads(stripped)
            return data[0] if isinstance(data, list) and data else data
    except (ValueError, RecursionError):
        return None
    return None


def json_lines(text: str) -> list[str]:
    """The lines of a JSON lines file: split at line feeds only, since a JSON string may hold
    any other character Python counts as a line break (U+2028, U+0085, …) unescaped."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def json_rows(path: str, text: str) -> list[Row]:
    """The records of a JSON lines file (one object a line) or a JSON list of objects."""
    stripped = text.lstrip("\ufeff")
    if stripped.lstrip().startswith("[") or path.endswith(".json"):
        return _json_list(path, stripped)
    rows: list[Row] = []
    loads = json.loads
    number = 0
    for line in json_lines(stripped):
        number += 1
        if not line or line.isspace():
            continue
        try:
            data = loads(line)
        except ValueError as error:
            raise SourceError(f"not valid JSON: {error}", file=path, line=number) from None
        if type(data) is not dict:
            raise SourceError("a line must hold a JSON object", file=path, line=number)
        rows.append(Row(path, len(rows) + 1, data, number))
    return rows


def _json_list(path: str, text: str) -> list[Row]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SourceError(f"not valid JSON: {error.msg}", file=path, line=error.lineno) from None
    except (ValueError, RecursionError) as error:
        raise SourceError(f"not valid JSON: {error}", file=path) from None
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise SourceError("the file must hold a JSON object or a list of objects", file=path)
    rows = []
    for index, item in enumerate(data, start=1):
        if not isinstance(item, dict):
            raise SourceError(f"row {index} is not a JSON object", file=path)
        rows.append(Row(path, index, item))
    return rows


def csv_rows(path: str, text: str) -> list[Row]:
    """The data rows of a CSV file with a header, as mappings of column to text; a row with
    more or fewer fields than the header, or a broken quote, is an error naming its line."""
    csv.field_size_limit(MAX_FIELD)
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff"), newline=""), strict=True)
    try:
        header = next(reader, None)
        if header is None:
            raise SourceError("the CSV file is empty", file=path)
        rows: list[Row] = []
        line = reader.line_num + 1
        for fields in reader:
            if not any(field.strip() for field in fields):
                line = reader.line_num + 1
                continue
            if len(fields) != len(header):
                raise SourceError(
                    f"this row has {len(fields)} fields, the header {len(header)}",
                    file=path,
                    line=line,
                )
            rows.append(Row(path, len(rows) + 1, dict(zip(header, fields, strict=True)), line))
            line = reader.line_num + 1
    except csv.Error as error:
        raise SourceError(f"not valid CSV: {error}", file=path, line=reader.line_num) from None
    return rows


def csv_header(text: str) -> list[str]:
    """The column names of a CSV file (empty when it has none or does not parse)."""
    try:
        return next(csv.reader(io.StringIO(text.lstrip("\ufeff"), newline="")), [])
    except csv.Error:
        return []


def yaml_data(path: str, text: str) -> Any:
    """The data of a YAML (or JSON) file, read by the strict loader."""
    try:
        return load_yaml(text).data
    except EvalFileError as error:
        raise SourceError(error.message, file=path, line=error.line) from None

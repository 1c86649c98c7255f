"""Reading one eval file of any period (YAML, or a YAML, JSONL or CSV list of cases).

What no AgentV would read is refused with file, line, case and field (EvalFileError); whatever
some AgentV read is kept, with notes (docs/formats.md, "What is refused, and what is not").
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from ..formatting.case_input import CaseInput
from .case_parts import CaseParts, case_input, file_evaluators, split_case
from .dialects import (
    CASES_KEYS,
    EVAL_SCHEMA,
    EVAL_SCHEMA_PREFIX,
    SCENARIOS_KEY,
    is_eval_document,
)
from .errors import EvalFileError, field_path
from .scenarios import scenario_tests
from .yaml_loader import LoadedYaml, load_yaml

# `yaml-case`: one case mapping, a `case.yaml` of a folder of cases (`tests: ./cases/`);
# `scenarios`: an eval file whose tests AgentV builds from its `scenarios:`.
FileFormat = Literal["yaml", "yaml-list", "jsonl", "csv", "yaml-case", "scenarios"]
FILE_FORMATS: tuple[FileFormat, ...] = (
    "yaml",
    "yaml-list",
    "jsonl",
    "csv",
    "yaml-case",
    "scenarios",
)
# Files whose cases are formatted and previewed but never written: the file is kept as it is.
READ_ONLY_FORMATS: dict[str, str] = {
    "csv": "the cases of a CSV file are read-only",
    "yaml-case": "the cases of a folder of cases are read-only",
    "scenarios": "the tests AgentV builds from `scenarios:` are read-only",
}


@dataclass
class EvalFileContents:
    """An eval file taken apart: its top-level mapping (`header`, where each case of the list
    of cases stands as None and each file reference as its string), its cases, the files it
    takes cases from, and notes on what was read with a warning."""

    format: FileFormat
    header: dict[Any, Any]
    cases_key: str | None
    cases: list[dict[Any, Any]]
    parts: list[CaseParts]
    references: list[str] = field(default_factory=list)
    notes: list[EvalFileError] = field(default_factory=list)

    def case_inputs(self) -> list[CaseInput]:
        """What the formatting engine reads of each case, file-level evaluators included."""
        evaluators = file_evaluators(self.header)
        return [case_input(parts, evaluators) for parts in self.parts]


def format_of_path(path: str) -> FileFormat:
    """The format of a file of cases by its name: YAML, JSONL or CSV."""
    lowered = path.lower()
    if lowered.endswith(".jsonl"):
        return "jsonl"
    if lowered.endswith(".csv"):
        return "csv"
    return "yaml"


def read_eval_file(
    source: bytes | str, *, file_format: FileFormat = "yaml", default_id: str | None = None
) -> EvalFileContents:
    """Read an eval file (`yaml`), or a file of cases another one refers to (`yaml-list`,
    `jsonl`, `csv`, or a folder's `case.yaml`, whose id is `default_id`, its folder's name,
    unless it has one). Raises EvalFileError for what no AgentV would read."""
    if file_format == "jsonl":
        return _contents("jsonl", {}, None, _jsonl_cases(source), None)
    if file_format == "csv":
        return _contents("csv", {}, None, _csv_cases(source), None)
    loaded = load_yaml(source)
    if file_format == "yaml-case":
        return _contents("yaml-case", {}, None, [_folder_case(loaded.data, default_id)], None)
    if file_format == "yaml-list" or isinstance(loaded.data, list):
        return _list_file(loaded.data, source)
    return read_eval_document(loaded.data, source)


def read_eval_document(data: Any, source: bytes | str) -> EvalFileContents:
    """`read_eval_file` of an already loaded YAML mapping; `source` is read again only for the
    line numbers of an error."""
    if not isinstance(data, dict):
        raise EvalFileError(
            "the file is not a YAML mapping (expected a list of cases, e.g. `tests:`)"
        )
    if not is_eval_document(data):
        raise EvalFileError(
            "no list of cases (`tests:`, `cases:`, `eval_cases:` or `evalcases:`)",
            field="tests",
        )
    cases_key = next((key for key in CASES_KEYS if key in data), None)
    notes: list[EvalFileError] = []
    schema = data.get("$schema")
    if isinstance(schema, str) and schema.startswith(EVAL_SCHEMA_PREFIX) and schema != EVAL_SCHEMA:
        notes.append(
            EvalFileError(
                f"unknown $schema version {schema!r}; read as {EVAL_SCHEMA}", field="$schema"
            )
        )
    if isinstance(data.get(SCENARIOS_KEY), list) and data[SCENARIOS_KEY]:
        return _scenarios_file(data, source, notes)
    if cases_key is None:
        raise EvalFileError(
            "the file claims to be an eval file (`$schema`) but has no list of cases",
            line=_lines(source).line_of(("$schema",)),
            field="evalcases",
        )
    entries = data[cases_key]
    header = dict(data)
    references: list[str] = []
    cases: list[dict[Any, Any]] = []
    if cases_key == "tests" and isinstance(entries, str):  # `tests: file://cases.jsonl`
        references.append(entries)
        return _contents("yaml", header, cases_key, [], source, references, notes)
    if entries is None:
        entries = []
        notes.append(EvalFileError("the list of cases is empty", field=cases_key))
    if not isinstance(entries, list):
        raise EvalFileError(
            f"must be a list of cases, not {_kind(entries)}",
            line=_lines(source).line_of((cases_key,)),
            field=cases_key,
        )
    placed: list[Any] = []
    for index, entry in enumerate(entries):
        if isinstance(entry, str) and cases_key == "tests":
            references.append(entry)  # `- file://cases/more.yaml`: kept in its place
            placed.append(entry)
            continue
        if not isinstance(entry, dict):
            raise EvalFileError(
                f"a case must be a mapping, not {_kind(entry)}",
                line=_lines(source).line_of((cases_key, index)),
                field=f"{cases_key}[{index}]",
            )
        cases.append(entry)
        placed.append(None)
    header[cases_key] = placed
    return _contents("yaml", header, cases_key, cases, source, references, notes)


def _scenarios_file(
    data: dict[Any, Any], source: bytes | str, notes: list[EvalFileError]
) -> EvalFileContents:
    """An eval file with `scenarios:`: its own `tests` (if any) and then the tests its
    scenarios stand for, as AgentV runs them (scenarios.py); read-only, kept as written."""
    header = dict(data)
    cases: list[dict[Any, Any]] = []
    references: list[str] = []
    entries = data.get("tests")
    if isinstance(entries, str):
        references.append(entries)
    elif isinstance(entries, list):
        placed: list[Any] = []
        for index, entry in enumerate(entries):
            if isinstance(entry, str):
                references.append(entry)
                placed.append(entry)
            elif isinstance(entry, dict):
                cases.append(entry)
                placed.append(None)
            else:
                raise EvalFileError(
                    f"a case must be a mapping, not {_kind(entry)}",
                    line=_lines(source).line_of(("tests", index)),
                    field=f"tests[{index}]",
                )
        header["tests"] = placed
    elif entries is not None:
        raise EvalFileError(
            f"must be a list of cases, not {_kind(entries)}",
            line=_lines(source).line_of(("tests",)),
            field="tests",
        )
    try:
        built, scenario_notes = scenario_tests(data[SCENARIOS_KEY])
    except EvalFileError as error:
        error.line = _lines(source).line_of(field_path(error.field))
        raise
    notes.extend(scenario_notes)
    return _contents("scenarios", header, "tests", cases + built, None, references, notes)


def _folder_case(data: Any, default_id: str | None) -> dict[Any, Any]:
    """The case a folder's `case.yaml` holds: one mapping, its id the folder's name unless it
    has one, as AgentV reads a folder of cases (docs/formats.md, "Cases in other files")."""
    if not isinstance(data, dict):
        raise EvalFileError(f"a case file must hold one case (a YAML mapping), not {_kind(data)}")
    if data.get("id") is None and default_id is not None:
        return {"id": default_id, **{k: v for k, v in data.items() if k != "id"}}
    return data


def _list_file(data: Any, source: bytes | str) -> EvalFileContents:
    if not isinstance(data, list):
        raise EvalFileError("a file of cases must hold a YAML list of cases")
    for index, entry in enumerate(data):
        if not isinstance(entry, dict):
            raise EvalFileError(
                f"a case must be a mapping, not {_kind(entry)}",
                line=_lines(source).line_of((index,)),
                field=f"[{index}]",
            )
    return _contents("yaml-list", {}, None, data, source)


def _contents(
    file_format: FileFormat,
    header: dict[Any, Any],
    cases_key: str | None,
    cases: list[dict[Any, Any]],
    source: bytes | str | None,
    references: list[str] | None = None,
    notes: list[EvalFileError] | None = None,
) -> EvalFileContents:
    parts: list[CaseParts] = []
    seen: set[str] = set()
    notes = notes if notes is not None else []
    prefix: tuple[str | int, ...] = (cases_key,) if cases_key else ()
    # NUL, which no database column stores (PostgreSQL refuses it), can only come from an
    # escape (`"\0"`, `"\u0000"`) or a raw byte of a JSONL or CSV file: only then is every
    # text walked.
    may_hold_nul = source is None or _MAY_HOLD_NUL.search(_as_text(source)) is not None
    if may_hold_nul and (where := nul_field(header)) is not None:
        line = None
        if source is not None and file_format in ("yaml", "yaml-list"):
            line = _lines(source).line_of(field_path(where))
        raise EvalFileError(NUL_REFUSED, line=line, field=where)
    for index, case in enumerate(cases):
        try:
            if may_hold_nul and (where := nul_field(case)) is not None:
                raise EvalFileError(NUL_REFUSED, field=where)
            case_parts = split_case(case)
        except EvalFileError as error:
            if source is not None and file_format in ("yaml", "yaml-list"):
                located = (*prefix, _position(header, cases_key, index), *field_path(error.field))
                error.line = _lines(source).line_of(located)
            case_id = case.get("id")
            error.case_id = _without_nul(case_id) if isinstance(case_id, str) else None
            error.field = f"{cases_key or ''}[{index}].{error.field}".lstrip(".")
            if error.case_id is not None:
                error.field = field_name_in_case(error.field)
            raise error from None
        if len(case_parts.case_id) > MAX_ID_LENGTH:
            # The database keeps ids of up to MAX_ID_LENGTH characters: refused here, named,
            # rather than failing the import's INSERT.
            line = None
            if source is not None and file_format in ("yaml", "yaml-list"):
                located = (*prefix, _position(header, cases_key, index), case_parts.spelling.id_key)
                line = _lines(source).line_of(located)
            raise EvalFileError(
                f"a case id can be at most {MAX_ID_LENGTH} characters long "
                f"(this one has {len(case_parts.case_id)})",
                line=line,
                case_id=_shortened(case_parts.case_id),
                field=case_parts.spelling.id_key,
            )
        if case_parts.case_id in seen:
            line = None
            if source is not None and file_format in ("yaml", "yaml-list"):
                located = (*prefix, _position(header, cases_key, index), case_parts.spelling.id_key)
                line = _lines(source).line_of(located)
            raise EvalFileError(
                "duplicate case id (ids must be unique within a file)",
                line=line,
                case_id=case_parts.case_id,
                field=case_parts.spelling.id_key,
            )
        seen.add(case_parts.case_id)
        notes.extend(case_notes(case_parts))
        parts.append(case_parts)
    return EvalFileContents(
        format=file_format,
        header=header,
        cases_key=cases_key,
        cases=cases,
        parts=parts,
        references=references or [],
        notes=notes,
    )


def case_notes(parts: CaseParts) -> list[EvalFileError]:
    """What some AgentV read but the app reads with a warning, for one case."""
    notes: list[EvalFileError] = []

    def note(message: str, field_name: str) -> None:
        notes.append(EvalFileError(message, case_id=parts.case_id, field=field_name))

    if parts.case_id != parts.case_id.strip():
        note("the id has spaces at its start or end", parts.spelling.id_key)
    if "input" in parts.unread:
        note("the conversation is not text or messages; it is kept as written", "input")
    elif "input" not in parts.spelling.present:
        # A `mode: conversation` test holds its conversation in `turns[].input` instead.
        if not isinstance(parts.skeleton.get("turns"), list):
            note("the case has no conversation (`input`)", "input")
    elif not parts.input_messages:
        note("the conversation is empty", _dotted(parts.spelling.input_path))
    elif (
        parts.spelling.input_path == ("input_messages",) and parts.spelling.input_form != "messages"
    ):
        # AgentV reads `input_messages` only as a list; any other shape skips the case.
        shape = "text" if parts.spelling.input_form == "string" else "a mapping"
        note(
            f"`input_messages` is {shape}, not a list of messages: AgentV skips this case",
            "input_messages",
        )
    for section, messages, path in (
        ("input", parts.input_messages, parts.spelling.input_path),
        ("expected", parts.expected_messages, parts.spelling.expected_path),
    ):
        for index, message in enumerate(messages):
            if "content" not in message and "tool_calls" not in message:
                where = _dotted(path) + (f"[{index}]" if len(messages) > 1 else "")
                note(f"{section} message {index + 1} has no content", where)
    return notes


def field_name_in_case(name: str) -> str:
    """`tests[3].input[0].role` as `input[0].role`: the field, with the case named apart."""
    if "]." in name:
        return name.split("].", 1)[1]
    return name


def _position(header: dict[Any, Any], cases_key: str | None, case_index: int) -> int:
    """The index in the file's list of the `case_index`-th case (references stand between)."""
    if cases_key is None:
        return case_index
    seen = -1
    for position, entry in enumerate(header.get(cases_key) or []):
        if entry is None:
            seen += 1
            if seen == case_index:
                return position
    return case_index


NUL_REFUSED = "text cannot hold NUL characters (`\\0`, `\\u0000`)"
# An escape that may spell NUL in YAML or JSON (`\0`, `\x00`, `\u0000`, `\U00000000`), or
# a raw NUL.
_MAY_HOLD_NUL = re.compile(r"\\[0xuU]|\x00")


def nul_field(value: Any, where: str = "") -> str | None:
    """The field (as `input[0].content`) of the first key or text in `value` that holds NUL,
    or None; a key's own field names it."""
    if isinstance(value, str):
        return (where or "the text") if "\x00" in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            name = _without_nul(key) if isinstance(key, str) else str(key)
            inside = f"{where}.{name}" if where else name
            if isinstance(key, str) and "\x00" in key:
                return inside
            found = nul_field(item, inside)
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = nul_field(item, f"{where}[{index}]")
            if found is not None:
                return found
    return None


def _without_nul(text: str) -> str:
    """`text` as a message may name it (and a database store it): NUL shown as `␀`."""
    return text.replace("\x00", "\u2400")


def _as_text(source: bytes | str) -> str:
    # Only searched for NUL and escapes: bytes that are not UTF-8 are refused elsewhere.
    return source if isinstance(source, str) else source.decode("utf-8", "replace")


def _shortened(case_id: str) -> str:
    """A long id as an error names it: its start, enough to find it."""
    return case_id if len(case_id) <= 60 else case_id[:60] + "…"


def _dotted(path: tuple[str, ...]) -> str:
    return ".".join(path)


def _lines(source: bytes | str) -> LoadedYaml:
    # Errors are rare, so line numbers are collected only then, by reading the file again.
    return load_yaml(source, track_lines=True)


def _kind(value: Any) -> str:
    if value is None:
        return "empty (null)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the text {value!r}"
    return f"{type(value).__name__} {value!r}"


def _text(source: bytes | str) -> str:
    if isinstance(source, str):
        return source
    try:
        return source.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        line = source[: error.start].count(b"\n") + 1
        raise EvalFileError("not UTF-8 text", line=line) from None


def _jsonl_cases(source: bytes | str) -> list[dict[Any, Any]]:
    cases: list[dict[Any, Any]] = []
    for number, line in enumerate(_text(source).split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line, object_pairs_hook=_refuse_duplicate_keys)
        except (ValueError, RecursionError) as error:
            raise EvalFileError(f"not a JSON object: {error}", line=number) from None
        if not isinstance(value, dict):
            raise EvalFileError(f"a case must be a JSON object, not {_kind(value)}", line=number)
        cases.append(value)
    return cases


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    mapping: dict[str, Any] = {}
    for key, value in pairs:
        if key in mapping:
            raise ValueError(f"duplicate key {key!r} in one object")
        mapping[key] = value
    return mapping


def _csv_cases(source: bytes | str) -> list[dict[Any, Any]]:
    """A CSV file's rows as cases: column `id` is the id, `vars.NAME` and plain `NAME` columns
    become `vars.NAME`, and columns starting with `__` are not variables (docs/formats.md)."""
    rows = csv.DictReader(io.StringIO(_text(source), newline=""))
    cases: list[dict[Any, Any]] = []
    for number, row in enumerate(rows, start=2):
        case: dict[Any, Any] = {}
        variables: dict[str, Any] = {}
        for column, value in row.items():
            if column is None or column.startswith("__"):
                continue
            if column == "id":
                case["id"] = value
            else:
                variables[column.removeprefix("vars.")] = value
        if not case.get("id"):
            raise EvalFileError("the row has no `id`", line=number, field="id")
        case["vars"] = variables
        cases.append(case)
    return cases


# The longest case id the database stores (the max_length of Case.case_id).
MAX_ID_LENGTH = 200


def case_id_problem(case_id: str) -> str | None:
    """What is wrong with an id typed in the app (editor, pasted YAML, API), or None.

    Import only warns about such ids (some AgentV read them); a new or edited case must have
    one that is non-empty, printable and without spaces at its ends.
    """
    if not case_id:
        return "a case needs an id"
    if case_id != case_id.strip():
        return "an id cannot start or end with a space"
    if not case_id.isprintable():
        return "an id cannot hold line breaks, tabs or other control characters"
    if len(case_id) > MAX_ID_LENGTH:
        return f"an id can be at most {MAX_ID_LENGTH} characters long"
    return None


def read_case(data: Any) -> CaseParts:
    """A case mapping from the editor, pasted YAML or the API, taken apart; raises
    EvalFileError naming the field when no AgentV would read it or its id is not one the app
    accepts."""
    if not isinstance(data, dict):
        raise EvalFileError(f"a case must be a mapping with an id, not {_kind(data)}")
    where = nul_field(data)
    if where is not None:
        case_id = data.get("id")
        named = _without_nul(case_id) if isinstance(case_id, str) else None
        raise EvalFileError(NUL_REFUSED, case_id=named, field=where)
    parts = split_case(data)
    problem = case_id_problem(parts.case_id)
    if problem is not None:
        raise EvalFileError(problem, case_id=parts.case_id, field=parts.spelling.id_key)
    return parts

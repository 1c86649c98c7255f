"""Reading eval files and the workspace config: YAML to validated models, errors with locations."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from .errors import EvalFileError
from .schema import (
    CONFIG_SCHEMA,
    DEFAULT_GUIDELINE_PATTERNS,
    EVAL_SCHEMA,
    ROLES,
    EvalCase,
    EvalFile,
)
from .yaml_loader import LoadedYaml, load_yaml


@dataclass(frozen=True)
class ParsedEvalFile:
    """An eval file's raw data (every key, in order) and the same data validated."""

    data: dict[str, Any]
    model: EvalFile


def looks_like_eval_file(data: Any) -> bool:
    """Whether a YAML document claims to be an eval file (EVAL_YAML.md, `import_evals`)."""
    if not isinstance(data, dict):
        return False
    schema = data.get("$schema")
    return "evalcases" in data or (isinstance(schema, str) and schema.startswith("agentv-eval"))


def parse_eval_file(source: bytes | str) -> ParsedEvalFile:
    """Load and validate one eval file; raise EvalFileError naming the line, case and field."""
    return validate_eval_document(load_yaml(source).data, source)


def validate_eval_document(data: Any, source: bytes | str) -> ParsedEvalFile:
    """Validate an already loaded eval document; `source` is re-read for line numbers on error."""
    if not isinstance(data, dict):
        raise EvalFileError("the file is not a YAML mapping (expected `$schema:` and `evalcases:`)")
    schema = data.get("$schema")
    if schema != EVAL_SCHEMA:
        found = "missing" if schema is None else f"{schema!r}"
        raise EvalFileError(
            f"is {found}, expected {EVAL_SCHEMA!r}",
            line=_lines(source).line_of(("$schema",)),
            field="$schema",
        )
    if "evalcases" not in data:
        raise EvalFileError("the file has no `evalcases:` list", field="evalcases")
    try:
        model = EvalFile.model_validate(data)
    except ValidationError as error:
        raise _located(_most_specific(error.errors()), data, _lines(source)) from None
    _check_unique_ids(model, source)
    return ParsedEvalFile(data=data, model=model)


def validate_case(data: Any) -> EvalCase:
    """Validate one case mapping (from the editor or a pasted snippet); errors name the field."""
    if not isinstance(data, dict):
        raise EvalFileError("a case must be a mapping with `id`, `outcome` and `input_messages`")
    try:
        return EvalCase.model_validate(data)
    except ValidationError as error:
        # Seen as the only case of a file, errors get the same wording as on import.
        wrapped = {"evalcases": [data]}
        errors: list[ErrorDetails] = []
        for detail in error.errors():
            detail["loc"] = ("evalcases", 0, *detail["loc"])
            errors.append(detail)
        located = _located(_most_specific(errors), wrapped, LoadedYaml(wrapped))
        if located.field is not None:
            located.field = located.field.removeprefix("evalcases[0]").lstrip(".") or None
        raise located from None


def parse_guideline_patterns(source: bytes | str | None) -> tuple[list[str], dict[str, Any]]:
    """Guideline patterns and the whole mapping of `.agentv/config.yaml` (defaults when absent)."""
    if source is None:
        return list(DEFAULT_GUIDELINE_PATTERNS), {}
    data = load_yaml(source).data
    if not isinstance(data, dict):
        raise EvalFileError("the config is not a YAML mapping")
    if data.get("$schema") != CONFIG_SCHEMA:
        raise EvalFileError(f"$schema must be {CONFIG_SCHEMA!r}", field="$schema")
    patterns = data.get("guideline_patterns", list(DEFAULT_GUIDELINE_PATTERNS))
    if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
        raise EvalFileError("must be a list of glob strings", field="guideline_patterns")
    return patterns, data


def _lines(source: bytes | str) -> LoadedYaml:
    # Errors are rare, so line numbers are collected only then, by reading the file again.
    return load_yaml(source, track_lines=True)


def _check_unique_ids(model: EvalFile, source: bytes | str) -> None:
    seen: set[str] = set()
    for index, case in enumerate(model.evalcases):
        if case.id in seen:
            raise EvalFileError(
                "duplicate case id (ids must be unique within a file)",
                line=_lines(source).line_of(("evalcases", index, "id")),
                case_id=case.id,
                field="id",
            )
        seen.add(case.id)


def _most_specific(errors: list[ErrorDetails]) -> ErrorDetails:
    # A union (`content: str | list`) fails once per member; the deepest failure of the first
    # case that failed is the one that says what to fix.
    first = errors[0]["loc"][:2]
    return max((e for e in errors if e["loc"][:2] == first), key=lambda e: len(e["loc"]))


def _located(error: ErrorDetails, data: dict[str, Any], lines: LoadedYaml) -> EvalFileError:
    # pydantic puts union members into the location (`content.str`); keep only real keys/indexes.
    path: list[str | int] = []
    node: Any = data
    loc = error["loc"]
    for index, step in enumerate(loc):
        if _has_child(node, step):
            node = node[step]
        elif error["type"] == "missing" and index == len(loc) - 1:
            node = None
        else:
            continue  # a union member's name, not a key of the document
        path.append(step)
    case_id = None
    if len(path) >= 2 and path[0] == "evalcases" and isinstance(path[1], int):
        case = data["evalcases"][path[1]]
        if isinstance(case, dict) and isinstance(case.get("id"), str):
            case_id = case["id"]
    return EvalFileError(
        _message(error, path, node),
        line=lines.line_of(tuple(path)),
        case_id=case_id,
        field=_field_name(path, case_known=case_id is not None),
    )


def _has_child(node: Any, step: str | int) -> bool:
    if isinstance(node, dict):
        return step in node
    return isinstance(node, list) and isinstance(step, int) and step < len(node)


def _message(error: ErrorDetails, path: list[str | int], node: Any) -> str:
    last = path[-1] if path else None
    kind = error["type"]
    if kind == "missing":
        return "is required"
    if last == "role":
        return f"unknown role {node!r} (expected {', '.join(ROLES[:-1])} or {ROLES[-1]})"
    if last == "content":
        return "must be a string or a list of blocks ({type, value} mappings or strings)"
    if last == "input_messages" and isinstance(node, list) and not node:
        return "must be a non-empty list of messages"
    if kind in ("list_type", "model_type", "dict_type", "model_attributes_type"):
        expected = "a list" if kind == "list_type" else "a mapping"
        return f"must be {expected}, not {_kind_of(node)}"
    if kind == "string_type":
        return f"must be a string, not {_kind_of(node)}"
    return str(error["msg"])


def _field_name(path: list[str | int], *, case_known: bool) -> str:
    # With the case id shown separately the field is relative to the case.
    steps = path[2:] if case_known else path
    name = ""
    for step in steps:
        name += f"[{step}]" if isinstance(step, int) else (f".{step}" if name else step)
    return name


def _kind_of(value: Any) -> str:
    if value is None:
        return "empty (null)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"{type(value).__name__} {value!r}"

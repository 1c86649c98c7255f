"""Checks of byte-faithful writing on any eval file: the unit tests run them on the project's
own examples, and bench/check_faithful_writing.py on a folder (e.g. AgentV's repository)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from evals_app.eval_files.faithful_writing import rewrite_eval_file
from evals_app.eval_files.json_text import decode_json, encode_json
from evals_app.eval_files.reading import EvalFileContents, read_eval_file
from evals_app.eval_files.yaml_layout import layout_of

EDIT_SUFFIX = " (edited)"


@dataclass
class FileCheck:
    """What happened to one file: untouched identical, and a one-string edit's diff."""

    identical: bool
    edited: bool = False  # a string was found to edit
    edit_problem: str | None = None


def stored(contents: EvalFileContents) -> tuple[dict[Any, Any], list[dict[Any, Any]]]:
    """The header and cases as the database gives them back (JSON: no shared objects)."""
    return decode_json(encode_json(contents.header)), decode_json(encode_json(contents.cases))


def check_file(original: str, file_format: str) -> FileCheck:
    """Untouched → identical bytes; one string of one case edited → only lines of that case
    change, no more than the value had (+1), and every comment line is kept."""
    contents = read_eval_file(original.removeprefix("\ufeff"), file_format=file_format)  # type: ignore[arg-type]
    header, cases = stored(contents)
    fmt = contents.format
    result = FileCheck(
        identical=rewrite_eval_file(original, header, cases, fmt, contents.cases_key) == original
    )
    for index, case in enumerate(cases):
        found = editable_string(original, fmt, contents, index)
        if found is None:
            continue
        path, source_lines = found
        result.edited = True
        set_at(case, path, get_at(case, path) + EDIT_SUFFIX)
        written = rewrite_eval_file(original, header, cases, fmt, contents.cases_key)
        result.edit_problem = edit_problem(original, written, fmt, contents, index, source_lines)
        break
    return result


def edit_problem(
    original: str,
    written: str,
    file_format: str,
    contents: EvalFileContents,
    case_index: int,
    source_lines: int,
) -> str | None:
    """Why the one-string edit of case `case_index` is not minimal, or None."""
    before = original.splitlines(keepends=True)
    after = written.splitlines(keepends=True)
    removed = added = 0
    first, last = case_lines(original, file_format, contents, case_index)
    for tag, start, end, new_start, new_end in difflib.SequenceMatcher(
        None, before, after, autojunk=False
    ).get_opcodes():
        if tag == "equal":
            continue
        removed += end - start
        added += new_end - new_start
        if start < first or end > last:
            return f"lines {start + 1}-{end} changed, outside the case (lines {first + 1}-{last})"
    allowed = source_lines + 1
    if removed > allowed or added > allowed:
        return f"{removed} lines removed and {added} added for a value of {allowed - 1} lines"
    kept = [line for line in after if line.strip().startswith("#")]
    lost = [line for line in before if line.strip().startswith("#") and line not in kept]
    if lost:
        return f"comment lines lost: {lost[:3]}"
    return None


def case_lines(
    original: str, file_format: str, contents: EvalFileContents, case_index: int
) -> tuple[int, int]:
    """The lines (0-based, end excluded) from case `case_index`'s start to the next one's."""
    text = original.removeprefix("\ufeff")
    if file_format == "jsonl":
        numbers = [n for n, line in enumerate(text.split("\n")) if line.strip()]
        return numbers[case_index], numbers[case_index] + 1
    root = layout_of(text)
    assert root is not None
    items, position = _case_items(text, root, contents, case_index)
    start = text.count("\n", 0, items[position].start)
    end = (
        text.count("\n", 0, items[position + 1].start)
        if position + 1 < len(items)
        else text.count("\n", 0, items[position].end) + 1
    )
    return start, end


def editable_string(
    original: str, file_format: str, contents: EvalFileContents, case_index: int
) -> tuple[tuple[Any, ...], int] | None:
    """The path in case `case_index` of its first string written out (not through an alias,
    whose edit writes the aliased value in full), and the lines its text takes."""
    case = contents.cases[case_index]
    if file_format == "jsonl":
        path = first_string(case, skip=("id", "test_id"))
        return (path, 1) if path is not None else None
    text = original.removeprefix("\ufeff")
    root = layout_of(text)
    assert root is not None
    node = case_node(text, root, contents, case_index)
    return _first_scalar(text, node, case, ())


def _first_scalar(
    text: str, node: Any, value: Any, path: tuple[Any, ...]
) -> tuple[tuple[Any, ...], int] | None:
    if node.kind == "alias":
        return None
    if isinstance(value, str) and node.kind == "scalar":
        return path, text.count("\n", node.start, node.end) + 1
    if isinstance(value, dict) and node.kind == "mapping":
        for (key, item), item_node in zip(value.items(), node.children[1::2], strict=True):
            if path == () and key in ("id", "test_id"):
                continue
            found = _first_scalar(text, item_node, item, (*path, key))
            if found is not None:
                return found
    if isinstance(value, list) and node.kind == "sequence":
        for index, (item, item_node) in enumerate(zip(value, node.children, strict=True)):
            found = _first_scalar(text, item_node, item, (*path, index))
            if found is not None:
                return found
    return None


def case_node(text: str, root: Any, contents: EvalFileContents, case_index: int) -> Any:
    """The layout node of case `case_index`."""
    items, position = _case_items(text, root, contents, case_index)
    return items[position]


def _case_items(
    text: str, root: Any, contents: EvalFileContents, case_index: int
) -> tuple[list[Any], int]:
    if root.kind != "mapping":
        return root.children, case_index
    keys = root.children[::2]
    where = next(
        i
        for i, key in enumerate(keys)
        if text[key.start : key.end].strip("'\"") == contents.cases_key
    )
    entries = contents.header[contents.cases_key]
    position = [i for i, entry in enumerate(entries) if entry is None][case_index]
    return root.children[2 * where + 1].children, position


def first_string(value: Any, skip: tuple[str, ...] = ()) -> tuple[Any, ...] | None:
    """The path of the first string in `value` (keys in `skip` of the top mapping passed)."""
    if isinstance(value, str):
        return ()
    items: list[tuple[Any, Any]]
    if isinstance(value, dict):
        items = [(key, item) for key, item in value.items() if key not in skip]
    elif isinstance(value, list):
        items = list(enumerate(value))
    else:
        return None
    for key, item in items:
        found = first_string(item)
        if found is not None:
            return (key, *found)
    return None


def get_at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def set_at(value: Any, path: tuple[Any, ...], new: Any) -> None:
    for step in path[:-1]:
        value = value[step]
    value[path[-1]] = new

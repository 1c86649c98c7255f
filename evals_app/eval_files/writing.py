"""Writing an eval file back in the form it came in: a YAML mapping, a YAML list, or JSONL.

The top-level keys keep their order around the list of cases, file references keep their place
in it, and each case is written as its document holds it (docs/formats.md, "Round trip").
Cases are written one at a time, so a large suite never sits in memory as one text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from .yaml_dumper import dump_yaml


def eval_file_chunks(
    file_format: str, header: dict[Any, Any], cases_key: str | None, cases: Iterable[Any]
) -> Iterator[str]:
    """The text of an eval file, in pieces: `header` (a suite's top-level mapping, where each
    case stands as None) with `cases` in their places; a YAML list or JSONL of `cases`."""
    return eval_file_pieces(
        file_format, header, cases_key, (case_text(file_format, case) for case in cases)
    )


def eval_file_text(
    file_format: str, header: dict[Any, Any], cases_key: str | None, cases: Iterable[Any]
) -> str:
    """`eval_file_chunks` joined."""
    return "".join(eval_file_chunks(file_format, header, cases_key, cases))


def case_text(file_format: str, case: Any) -> str:
    """One case as its file writes it: a YAML list item (`- ...`) or a JSON line.

    Cases are written on their own so that export can write them in worker processes and put
    the file together where it writes it (`eval_file_pieces`).
    """
    if file_format == "jsonl":
        return json.dumps(case, ensure_ascii=False) + "\n"
    return dump_yaml([case])


def eval_file_pieces(
    file_format: str, header: dict[Any, Any], cases_key: str | None, case_texts: Iterable[str]
) -> Iterator[str]:
    """`eval_file_chunks` of cases already written by `case_text`."""
    if file_format == "jsonl":
        yield from case_texts
        return
    if file_format == "yaml-list":
        written = False
        for text in case_texts:
            written = True
            yield text
        if not written:
            yield "[]\n"
        return
    yield from _mapping_chunks(header, cases_key, case_texts)


def _mapping_chunks(
    header: dict[Any, Any], cases_key: str | None, case_texts: Iterable[str]
) -> Iterator[str]:
    if cases_key is None or cases_key not in header:
        yield dump_yaml(header) if header else "{}\n"
        return
    keys = list(header)
    split = keys.index(cases_key)
    before = {key: header[key] for key in keys[:split]}
    after = {key: header[key] for key in keys[split + 1 :]}
    if before:
        yield dump_yaml(before)
    entries = header[cases_key]
    if isinstance(entries, list):
        yield from _entries(cases_key, entries, iter(case_texts))
    else:  # `tests: file://cases.jsonl`: the cases are written to that file
        yield dump_yaml({cases_key: entries})
    if after:
        yield dump_yaml(after)


def _entries(cases_key: str, entries: list[Any], case_texts: Iterator[str]) -> Iterator[str]:
    """The list of cases: each None of `entries` takes the next case, references stay in their
    places, and cases beyond the file's own (added in the app) come last."""
    first = True
    for entry in entries:
        if entry is None:
            text = next(case_texts, None)
            if text is None:
                continue  # a case deleted in the app
        else:
            text = dump_yaml([entry])
        if first:
            yield f"{cases_key}:\n"
            first = False
        yield text
    for text in case_texts:
        if first:
            yield f"{cases_key}:\n"
            first = False
        yield text
    if first:
        yield f"{cases_key}: []\n"

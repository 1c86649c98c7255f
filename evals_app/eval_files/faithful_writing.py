"""Writing an eval file back byte for byte where it did not change (docs/formats.md, "Round
trip").

`rewrite_eval_file` takes the file's text as it was read and the documents it must now hold.
Untouched, the text comes back as it was; changed, only what changed is written anew: cases
that did not change keep their bytes, a changed case keeps its unchanged lines, comments and
styles (yaml_splicing), and a JSONL file keeps every unchanged line. Whatever is written is
read back with the project's reader before it is returned; when splicing cannot give exactly
the documents, the changed cases are written whole, and at worst the file is written by the
app's own writer (writing.py).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

from .errors import EvalFileError
from .json_text import encode_json
from .reading import READ_ONLY_FORMATS, FileFormat, read_eval_file
from .writing import eval_file_text
from .yaml_layout import LayoutError, layout_of
from .yaml_loader import load_yaml
from .yaml_splicing import CannotSplice, item_key, match_items, splice_yaml
from .yaml_styles import detect_habits

_BOM = "\ufeff"


def rewrite_eval_file(
    original: str,
    header: dict[Any, Any],
    cases: list[dict[Any, Any]],
    file_format: FileFormat,
    cases_key: str | None,
) -> str:
    """The new text of the eval file whose text as read was `original`, now holding `header`
    (its top-level mapping, each case of its list standing as None, as `read_eval_file` gives
    it) and `cases`; `original` itself when they are what it reads as.

    `original` is the file's text decoded from UTF-8 with nothing else done to it (its BOM
    and line endings kept). A read-only file (CSV, a folder's case, `scenarios:`) comes back
    as it was.
    """
    if file_format in READ_ONLY_FORMATS:
        return original
    bom = _BOM if original.startswith(_BOM) else ""
    body = original[len(bom) :]
    expected = _expected(header, cases, file_format, cases_key)
    if _reads_as(body, file_format, expected):
        return original
    for attempt in _attempts(body, header, cases, file_format, cases_key):
        try:
            written = attempt()
        except (CannotSplice, LayoutError, EvalFileError):
            continue
        if _reads_as(written, file_format, expected):
            return bom + written
    # Nothing the file's own text allows holds the documents; the app's writer does (or, for
    # documents no file could hold, comes nearest).
    return bom + eval_file_text(file_format, header, cases_key, cases)


def documents_digest(header: dict[Any, Any], cases: list[dict[Any, Any]]) -> str:
    """A digest of the documents a text reads as (its header and cases, as JSON): the same
    digest later says they are still what it reads as, without reading it again."""
    return json_digest(encode_json(header), (encode_json(case) for case in cases))


def json_digest(header_json: str, case_jsons: Iterable[str]) -> str:
    """`documents_digest` of documents given as their JSON text (`encode_json`'s, as the
    database holds them): nothing is decoded."""
    digest = hashlib.sha256(header_json.encode("utf-8", "surrogatepass"))
    for case_json in case_jsons:
        digest.update(b"\n")
        digest.update(case_json.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _attempts(
    body: str,
    header: dict[Any, Any],
    cases: list[dict[Any, Any]],
    file_format: FileFormat,
    cases_key: str | None,
) -> list[Any]:
    """The ways to write the file, from the smallest change to the largest."""
    if file_format == "jsonl":
        return [lambda: _rewrite_jsonl(body, cases)]

    def spliced(coarse: bool, expand_aliases: bool) -> str:
        return _rewrite_yaml(body, header, cases, file_format, cases_key, coarse, expand_aliases)

    def rewritten_whole() -> str:
        text = eval_file_text(file_format, header, cases_key, cases)
        return text.replace("\n", "\r\n") if "\r\n" in body else text

    # Splicing can fail to give the documents only where aliases tie cases together (an
    # anchor in a deleted or moved case) or for layouts it does not know; each attempt
    # writes more anew than the one before.
    def spliced_with_final_break() -> str:
        # A file without a final line break whose new last value needs one (a `|` block
        # ending in a line break): the break the value needs is the only byte added.
        text = spliced(False, False)
        if text.endswith("\n"):
            raise CannotSplice("the file already ends with a line break")
        return text + ("\r\n" if "\r\n" in body else "\n")

    return [
        lambda: spliced(False, False),
        lambda: spliced(False, True),
        spliced_with_final_break,
        lambda: spliced(True, True),
        rewritten_whole,
    ]


def _rewrite_yaml(
    body: str,
    header: dict[Any, Any],
    cases: list[dict[Any, Any]],
    file_format: FileFormat,
    cases_key: str | None,
    coarse: bool,
    expand_aliases: bool,
) -> str:
    root = layout_of(body)
    if root is None or not root.is_block_collection:
        raise CannotSplice("the file is empty or one flow collection")
    old = load_yaml(body).data
    if isinstance(old, list):
        new: Any = list(cases)
        cases_path: tuple[Any, ...] = ()
    else:
        new = _full_document(old, header, cases, cases_key)
        cases_path = (cases_key,)
    habits = detect_habits(body, root)
    return splice_yaml(
        body, root, old, new, habits, cases_path, coarse=coarse, expand_aliases=expand_aliases
    )


def _full_document(
    old: Any, header: dict[Any, Any], cases: list[dict[Any, Any]], cases_key: str | None
) -> dict[Any, Any]:
    """The file's top-level mapping with the cases in their places, as writing.py places
    them: each None of the list takes the next case, and cases beyond them come last."""
    document: dict[Any, Any] = {}
    for key, value in header.items():
        if key == cases_key and isinstance(value, list):
            remaining = iter(cases)
            entries: list[Any] = []
            for entry in value:
                if entry is None:
                    case = next(remaining, None)
                    if case is not None:
                        entries.append(case)
                else:
                    entries.append(entry)
            entries.extend(remaining)
            # `tests:` left empty in the file reads as an empty list: it stays empty.
            kept_empty = not entries and isinstance(old, dict) and old.get(key, []) is None
            value = None if kept_empty else entries
        document[key] = value
    return document


def _expected(
    header: dict[Any, Any],
    cases: list[dict[Any, Any]],
    file_format: FileFormat,
    cases_key: str | None,
) -> tuple[str, str]:
    """The header and cases (as JSON) that the written file must read as."""
    if file_format != "yaml":
        return encode_json({}), encode_json(cases)
    placed = dict(header)
    entries = header.get(cases_key) if cases_key is not None else None
    if isinstance(entries, list):
        remaining = len(cases)
        kept: list[Any] = []
        for entry in entries:
            if entry is not None:
                kept.append(entry)
            elif remaining:
                kept.append(None)
                remaining -= 1
        placed[cases_key] = kept + [None] * remaining
    return encode_json(placed), encode_json(cases)


def _reads_as(text: str, file_format: FileFormat, expected: tuple[str, str]) -> bool:
    try:
        contents = read_eval_file(text, file_format=file_format)
    except EvalFileError:
        return False
    if file_format == "yaml" and contents.format != "yaml":
        return False
    return (encode_json(contents.header), encode_json(contents.cases)) == expected


def _rewrite_jsonl(body: str, cases: list[dict[Any, Any]]) -> str:
    """A JSONL file of cases: each unchanged case keeps its line (and the blank lines before
    it); a changed or new one is written as the file writes its lines."""
    lines = body.split("\n")  # as the reader splits them; a `\r` stays with its line
    entries: list[tuple[list[str], str, Any]] = []
    blank: list[str] = []
    for line in lines:
        if not line.strip():
            blank.append(line)
            continue
        entries.append((blank, line, json.loads(line)))
        blank = []
    tail = blank
    dumps = _jsonl_writer([line for _, line, _ in entries])
    crlf = sum(line.endswith("\r") for _, line, _ in entries) * 2 > len(entries)
    sources = match_items(
        [item_key(value, True) for _, _, value in entries],
        [item_key(case, True) for case in cases],
    )
    out: list[str] = []
    for case, source in zip(cases, sources, strict=True):
        if source is None:
            out.append(dumps(case) + ("\r" if crlf else ""))
            continue
        lead, line, value = entries[source]
        out.extend(lead)
        if encode_json(value) == encode_json(case):
            out.append(line)
        else:
            out.append(dumps(case) + ("\r" if line.endswith("\r") else ""))
    out.extend(tail)
    return "\n".join(out)


def _jsonl_writer(lines: list[str]) -> Any:
    """`json.dumps` set as the file's lines are written: spacing and ASCII escaping, as most
    of its lines (the first hundred) show; Python's defaults, non-ASCII kept, without any."""
    votes: Counter[tuple[bool, tuple[str, str]]] = Counter()
    options = [
        (ascii_only, separators)
        for ascii_only in (False, True)
        for separators in ((", ", ": "), (",", ":"), (",", ": "))
    ]
    for line in lines[:100]:
        value = json.loads(line)
        stripped = line.rstrip("\r").strip()
        for ascii_only, separators in options:
            if json.dumps(value, ensure_ascii=ascii_only, separators=separators) == stripped:
                votes[(ascii_only, separators)] += 1
                break
    ascii_only, separators = votes.most_common(1)[0][0] if votes else (False, (", ", ": "))

    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=ascii_only, separators=separators)

    return dumps


def rename_top_level_key(original: str, old: str, new: str) -> str:
    """`original` with the top-level key `old` spelled `new` where it is written, and nothing
    else changed; `original` when it has no such plain key (e.g. an upgrade's `evalcases:`
    becoming `tests:`, so that the cases under it keep their lines and comments)."""
    bom = _BOM if original.startswith(_BOM) else ""
    body = original[len(bom) :]
    try:
        root = layout_of(body)
    except LayoutError:
        return original
    if root is None or root.kind != "mapping":
        return original
    for key in root.children[::2]:
        if key.kind == "scalar" and key.style is None and body[key.start : key.end] == old:
            return bom + body[: key.start] + new + body[key.end :]
    return original

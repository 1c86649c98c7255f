"""Finding a workspace folder's eval files, its configs, and the files of cases they refer to.

A YAML file is an eval file when its content says so (docs/formats.md, "Which files are eval
files"); any other YAML file is skipped with its reason, even when it does not parse, unless
its name says the user meant it as an eval file.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .dialects import (
    EVAL_FILE_NAMES,
    EVAL_FILE_SUFFIXES,
    IGNORED_FOLDERS,
    is_eval_document,
    reference_path,
    referenced_file,
)
from .errors import EvalFileError
from .reading import EvalFileContents, format_of_path, read_eval_document, read_eval_file
from .yaml_loader import MAX_BYTES, load_yaml

YAML_SUFFIXES = (".yaml", ".yml")
OUTSIDE_LINK = "is a symbolic link to a file outside the workspace; it is not read"


@dataclass(frozen=True)
class FoundEvalFile:
    """An eval file (or a file of cases one refers to) at its workspace path, read."""

    path: str
    contents: EvalFileContents
    referenced_by: str | None = None


@dataclass
class Discovery:
    """What a folder holds for an import: eval files, config texts, and the skipped YAML files
    with their reasons; `errors` are what refuses the import."""

    eval_files: list[FoundEvalFile] = field(default_factory=list)
    configs: dict[str, bytes] = field(default_factory=dict)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    errors: list[EvalFileError] = field(default_factory=list)
    notes: list[EvalFileError] = field(default_factory=list)


def is_named_like_eval_file(path: str) -> bool:
    """Whether the name says the user meant an eval file: `*.eval.yaml`, `EVAL.yaml` or
    `evals/**/suite.yaml`."""
    name = posixpath.basename(path)
    if name.endswith(EVAL_FILE_SUFFIXES) or name in EVAL_FILE_NAMES:
        return True
    return name in ("suite.yaml", "suite.yml") and (path.startswith("evals/") or "/evals/" in path)


def discover(root: Path, single_file: Path | None = None) -> Discovery:
    """Every eval file under `root` (or only `single_file`), its configs, the files of cases
    the eval files refer to, and the YAML files skipped."""
    found = Discovery()
    candidates = [single_file] if single_file is not None else sorted(_yaml_files(root))
    for candidate in _config_files(root):
        relative = candidate.relative_to(root).as_posix()
        if _inside(candidate, root) and candidate.stat().st_size <= MAX_BYTES:
            found.configs[relative] = candidate.read_bytes()
    for candidate in candidates:
        _read_candidate(candidate, root, found, forced=single_file is not None)
    _follow_references(root, found)
    if not found.errors and not found.eval_files:
        reasons = ", ".join(f"{path} ({reason})" for path, reason in found.skipped)
        where = str(single_file or root)
        found.errors.append(
            EvalFileError(
                "no eval file found (a YAML file with `tests:`, `cases:`, `eval_cases:`, "
                "`evalcases:` or `$schema: agentv-eval…`)"
                + (f"; skipped: {reasons}" if reasons else ""),
                file=where,
            )
        )
    return found


def _read_candidate(candidate: Path, root: Path, found: Discovery, *, forced: bool) -> None:
    relative = candidate.relative_to(root).as_posix()
    meant = forced or is_named_like_eval_file(relative)
    try:
        if not _inside(candidate, root):
            raise EvalFileError(OUTSIDE_LINK)
        if candidate.stat().st_size > MAX_BYTES:
            # Whether it is an eval file cannot be told without reading it: refused, not skipped.
            meant = True
            raise EvalFileError(f"file is larger than the limit of {MAX_BYTES // 2**20} MiB")
        source = candidate.read_bytes()
    except EvalFileError as error:
        if meant:
            found.errors.append(error.located(relative))
        else:
            found.skipped.append((relative, error.message))
        return
    except OSError as error:
        found.errors.append(EvalFileError(f"cannot be read: {error.strerror}", file=relative))
        return
    try:
        data = load_yaml(source).data
    except EvalFileError as error:
        if meant:
            found.errors.append(error.located(relative))
        else:
            found.skipped.append((relative, error.message))
        return
    if not is_eval_document(data):
        if forced:
            what = "not an eval file" if isinstance(data, dict) else "not a YAML mapping"
            found.errors.append(
                EvalFileError(
                    f"{what} (an eval file has a list of cases: `tests:`, `cases:`, "
                    "`eval_cases:` or `evalcases:`)",
                    file=relative,
                )
            )
        else:
            found.skipped.append((relative, "not an eval file"))
        return
    try:
        contents = read_eval_document(data, source)
    except EvalFileError as error:
        found.errors.append(error.located(relative))
        return
    found.eval_files.append(FoundEvalFile(relative, contents))


def _follow_references(root: Path, found: Discovery) -> None:
    """Read the files of cases that eval files refer to (`tests: file://cases.jsonl`) as
    eval files of their own; a reference that cannot be followed stays, with a note."""
    known = {eval_file.path for eval_file in found.eval_files}
    for eval_file in list(found.eval_files):
        for reference in eval_file.contents.references:
            target = reference_path(reference)
            path = referenced_file(eval_file.path, reference)
            note = _reference_problem(root, path, target)
            if note is not None:
                found.notes.append(EvalFileError(f"{reference}: {note}", file=eval_file.path))
                continue
            if path in known:
                continue
            file_format = format_of_path(path)
            if file_format == "yaml":
                file_format = "yaml-list"
            try:
                contents = read_eval_file((root / path).read_bytes(), file_format=file_format)
            except EvalFileError as error:
                found.errors.append(error.located(path))
                continue
            known.add(path)
            found.eval_files.append(FoundEvalFile(path, contents, referenced_by=eval_file.path))
            found.skipped = [(skipped, why) for skipped, why in found.skipped if skipped != path]


def _reference_problem(root: Path, path: str, target: str) -> str | None:
    if any(char in target for char in "*?{"):
        return "a glob of case files is kept as written, but its files are not imported"
    if path.startswith("../") or path == "..":
        return "the file is outside the workspace; the reference is kept as written"
    candidate = root / path
    if not candidate.is_file() or not _inside(candidate, root):
        return "no such file in the workspace; the reference is kept as written"
    if format_of_path(path) == "yaml" and not path.endswith(YAML_SUFFIXES):
        return "only YAML, JSONL and CSV files of cases are read; the reference is kept"
    return None


def _inside(path: Path, root: Path) -> bool:
    """Whether `path`, symbolic links followed, is in the (resolved) workspace root."""
    return path.resolve().is_relative_to(root)


def _walk(root: Path) -> Iterator[Path]:
    for candidate in root.rglob("*"):
        parts = candidate.relative_to(root).parts
        if any(part in IGNORED_FOLDERS for part in parts[:-1]):
            continue
        yield candidate


def _yaml_files(root: Path) -> Iterator[Path]:
    for candidate in _walk(root):
        if candidate.suffix in YAML_SUFFIXES and candidate.is_file():
            yield candidate


def _config_files(root: Path) -> Iterator[Path]:
    for candidate in root.rglob(".agentv/config.yaml"):
        parts = candidate.relative_to(root).parts
        if not any(part in (".git", "node_modules") for part in parts) and candidate.is_file():
            yield candidate

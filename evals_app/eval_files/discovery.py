"""Finding a workspace folder's eval files, its configs, and the files of cases they refer to.

A YAML file is an eval file when its content says so (docs/formats.md, "Which files are eval
files"); any other YAML file is skipped with its reason, even when it does not parse, unless
its name says the user meant it as an eval file.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from pathlib import Path

from .dialects import (
    EVAL_FILE_NAMES,
    EVAL_FILE_SUFFIXES,
    EXPERIMENT_FILE,
    is_eval_document,
    is_experiment_document,
    reference_path,
    referenced_file,
)
from .errors import EvalFileError
from .file_trees import TOO_LARGE, YAML_SUFFIXES, DirectoryTree, FileTree
from .paths import PathError, check_path, shown
from .reading import EvalFileContents, format_of_path, read_eval_document, read_eval_file
from .yaml_loader import load_yaml

__all__ = ["YAML_SUFFIXES", "Discovery", "FoundEvalFile", "discover", "discover_tree"]


@dataclass(frozen=True)
class FoundEvalFile:
    """An eval file (or a file of cases one refers to) at its workspace path, read."""

    path: str
    contents: EvalFileContents
    referenced_by: str | None = None
    # The file's bytes decoded from UTF-8 and nothing else (BOM and line endings kept): what
    # writing it back starts from (faithful_writing.py).
    text: str | None = None

    def outline(self) -> FoundEvalFile:
        """The file without its cases and text: what discovery needs once it is read (its
        path, header and references)."""
        contents = replace(self.contents, cases=[], parts=[])
        return replace(self, contents=contents, text=None)


@dataclass
class Discovery:
    """What a folder holds for an import: eval files, config texts, and the files skipped
    (YAML files that are no eval files, paths the path rule refuses, a commit's links) with
    their reasons; `errors` are what refuses the import."""

    eval_files: list[FoundEvalFile] = field(default_factory=list)
    configs: dict[str, bytes] = field(default_factory=dict)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    errors: list[EvalFileError] = field(default_factory=list)
    notes: list[EvalFileError] = field(default_factory=list)
    shed: Shed | None = field(default=None, repr=False)

    def add(self, eval_file: FoundEvalFile) -> None:
        """Note an eval file just read (what `shed` keeps of it, if given)."""
        self.eval_files.append(eval_file if self.shed is None else self.shed(eval_file, self))


def is_named_like_eval_file(path: str) -> bool:
    """Whether the name says the user meant an eval file: `*.eval.yaml`, `EVAL.yaml` or
    `evals/**/suite.yaml`."""
    name = posixpath.basename(path)
    if name.endswith(EVAL_FILE_SUFFIXES) or name in EVAL_FILE_NAMES:
        return True
    return name in ("suite.yaml", "suite.yml") and (path.startswith("evals/") or "/evals/" in path)


# What discovery keeps of each eval file it reads, given the file and what was found so far.
Shed = Callable[[FoundEvalFile, Discovery], FoundEvalFile]


def discover(root: Path, single_file: Path | None = None, shed: Shed | None = None) -> Discovery:
    """Every eval file under the folder `root` (or only `single_file`), its configs, the files
    of cases the eval files refer to, and the YAML files skipped (`shed`: as discover_tree)."""
    tree = DirectoryTree(root)
    single = None if single_file is None else single_file.relative_to(tree.root).as_posix()
    return discover_tree(tree, single, where=str(single_file or root), shed=shed)


def discover_tree(
    tree: FileTree,
    single_file: str | None = None,
    where: str = "",
    known: Collection[str] = (),
    shed: Shed | None = None,
) -> Discovery:
    """`discover` for any file tree (a folder, or the files of a git commit). The eval files
    at the paths `known` are known unchanged (a sync's settled suites): they count as found
    but are not read, and refer to no other file.

    `shed`, when given, hears of each eval file as it is read (configs are read first) and
    returns what to keep of it, e.g. its `outline()`: an import that stores each file as it
    comes never holds a whole workspace's cases at once."""
    found = Discovery(shed=shed)
    candidates = [single_file] if single_file is not None else tree.yaml_paths()
    candidates = [path for path in candidates if path not in known]
    for path in tree.config_paths():
        try:
            found.configs[path] = tree.read(path)
        except (EvalFileError, OSError):
            continue  # an unreadable config counts as absent, as it always has
    # A file whose path the app cannot store or write back is skipped, named (docs/sync.md).
    found.skipped.extend(tree.left_out())
    if single_file is not None:
        try:
            check_path(single_file)
        except PathError as error:
            found.errors.append(EvalFileError(error.message, file=shown(single_file)))
            return found
    for candidate in candidates:
        _read_candidate(tree, candidate, found, forced=single_file is not None)
    _follow_references(tree, found, known)
    if not found.errors and not found.eval_files and not known:
        reasons = ", ".join(f"{path} ({reason})" for path, reason in found.skipped)
        found.errors.append(
            EvalFileError(
                "no eval file found (a YAML file with `tests:`, `cases:`, `eval_cases:`, "
                "`evalcases:` or `$schema: agentv-eval…`)"
                + (f"; skipped: {reasons}" if reasons else ""),
                file=where or single_file or ".",
            )
        )
    return found


def _read_candidate(tree: FileTree, relative: str, found: Discovery, *, forced: bool) -> None:
    meant = forced or is_named_like_eval_file(relative)
    try:
        source = tree.read(relative)
    except EvalFileError as error:
        # Whether a too large file is an eval file cannot be told without reading it:
        # refused, not skipped.
        if meant or error.message == TOO_LARGE:
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
            found.skipped.append((relative, _skip_reason(error, relative)))
        return
    if is_experiment_document(relative, data):
        # An experiment file names suites and test ids to run; it is never a refusal of the
        # import, only of an import of that file alone.
        if forced:
            found.errors.append(
                EvalFileError(f"an {EXPERIMENT_FILE}, not an eval file", file=relative)
            )
        else:
            found.skipped.append((relative, EXPERIMENT_FILE))
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
    found.add(FoundEvalFile(relative, contents, text=_as_read(source)))


def _skip_reason(error: EvalFileError, path: str) -> str:
    """Why a YAML file is skipped; where it does not parse, at `file:line:column` so that an
    editor can open it there."""
    if error.line is None or error.column is None:
        return error.message
    return f"{error.message} ({path}:{error.line}:{error.column})"


def _follow_references(tree: FileTree, found: Discovery, unread: Collection[str]) -> None:
    """Read the files of cases that eval files refer to (`tests: file://cases.jsonl`) as
    eval files of their own; a reference that cannot be followed stays, with a note. The
    eval files `unread` are known, not read again."""
    known = {eval_file.path for eval_file in found.eval_files} | set(unread)
    for eval_file in list(found.eval_files):
        for reference in eval_file.contents.references:
            target = reference_path(reference)
            path = referenced_file(eval_file.path, reference)
            case_files = _case_files(tree, path, target)
            if case_files:
                _read_case_folder(tree, case_files, eval_file.path, found, known)
                continue
            note = _reference_problem(tree, path, target)
            if note is not None:
                found.notes.append(EvalFileError(f"{reference}: {note}", file=eval_file.path))
                continue
            if path in known:
                continue
            file_format = format_of_path(path)
            if file_format == "yaml":
                file_format = "yaml-list"
            try:
                source = tree.read(path)
                contents = read_eval_file(source, file_format=file_format)
            except EvalFileError as error:
                found.errors.append(error.located(path))
                continue
            known.add(path)
            found.add(FoundEvalFile(path, contents, eval_file.path, text=_as_read(source)))
            found.skipped = [(skipped, why) for skipped, why in found.skipped if skipped != path]


# A folder of cases holds one folder per case, each with its case in one of these.
CASE_FILE_NAMES = ("case.yaml", "case.yml")


def _case_files(tree: FileTree, path: str, target: str) -> list[tuple[str, str]]:
    """The case files of the folder of cases at `path` (`tests: ./cases/`), as (folder name,
    file path) sorted by folder name, as AgentV reads them; none when `path` is no such
    folder (a file, a glob, outside the workspace)."""
    if any(char in target for char in "*?{") or path.startswith("../") or path == "..":
        return []
    if tree.is_file(path):
        return []
    prefix = "" if path == "." else path + "/"
    found: dict[str, str] = {}
    for candidate in tree.yaml_paths():
        if not candidate.startswith(prefix):
            continue
        parts = candidate[len(prefix) :].split("/")
        if len(parts) != 2 or parts[1] not in CASE_FILE_NAMES:
            continue
        # `case.yaml` is read before `case.yml`, as AgentV looks for them.
        if parts[0] not in found or parts[1] == CASE_FILE_NAMES[0]:
            found[parts[0]] = candidate
    return sorted(found.items())


def _read_case_folder(
    tree: FileTree,
    case_files: list[tuple[str, str]],
    referrer: str,
    found: Discovery,
    known: set[str],
) -> None:
    """Read each case of a folder of cases as a read-only suite of its own, its id its folder's
    name unless it names one (docs/formats.md, "Cases in other files")."""
    for name, path in case_files:
        if path in known:
            continue
        source = tree.read(path)
        try:
            contents = read_eval_file(source, file_format="yaml-case", default_id=name)
        except EvalFileError as error:
            found.errors.append(error.located(path))
            continue
        known.add(path)
        found.add(FoundEvalFile(path, contents, referenced_by=referrer, text=_as_read(source)))
        found.skipped = [(skipped, why) for skipped, why in found.skipped if skipped != path]


def _as_read(source: bytes) -> str | None:
    """The file's text exactly as read; None when it is no UTF-8 (only a CSV file can be:
    the reader refuses any other)."""
    try:
        return source.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _reference_problem(tree: FileTree, path: str, target: str) -> str | None:
    if any(char in target for char in "*?{"):
        return "a glob of case files is kept as written, but its files are not imported"
    if path.startswith("../") or path == "..":
        return "the file is outside the workspace; the reference is kept as written"
    try:
        check_path(path)
    except PathError as error:
        return f"{error.message} The reference is kept as written"
    if not tree.is_file(path):
        return "no such file in the workspace; the reference is kept as written"
    if format_of_path(path) == "yaml" and not path.endswith(YAML_SUFFIXES):
        return "only YAML, JSONL and CSV files of cases are read; the reference is kept"
    return None

"""Where discovery reads a workspace from: a folder on disk, or the files of one git commit.

Both list files by workspace-relative POSIX path and read them as bytes; discovery
(discovery.py) decides what they are. Reading a commit never looks at a work tree.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Protocol

from ..formatting.workspace_files import UndecodableFileError
from .dialects import IGNORED_FOLDERS
from .errors import EvalFileError
from .paths import PathError, check_path, shown
from .yaml_loader import MAX_BYTES

YAML_SUFFIXES = (".yaml", ".yml")
CONFIG_NAME = ".agentv/config.yaml"
OUTSIDE_LINK = "is a symbolic link to a file outside the workspace; it is not read"
TOO_LARGE = f"file is larger than the limit of {MAX_BYTES // 2**20} MiB"
SYMBOLIC_LINK = "symbolic link: not read"
LeftOut = tuple[str, str]  # a file not read, as it can be shown, and why


class FileTree(Protocol):
    """The files of a workspace, by workspace-relative POSIX path."""

    def yaml_paths(self) -> list[str]:
        """The YAML files outside ignored folders (`.git`, `node_modules`, `.agentv`), sorted."""
        ...

    def config_paths(self) -> list[str]:
        """Every `.agentv/config.yaml` outside `.git` and `node_modules`."""
        ...

    def read(self, path: str) -> bytes:
        """The file's bytes. Raises EvalFileError (outside link, too large) or OSError."""
        ...

    def is_file(self, path: str) -> bool:
        """Whether a regular file inside the workspace is at `path`."""
        ...

    def left_out(self) -> list[LeftOut]:
        """The files listed so far that are never read: a path the path rule refuses
        (eval_files/paths.py), a symbolic link of a commit; each with why."""
        ...


def _ignored(path: str, folders: Iterable[str] = IGNORED_FOLDERS) -> bool:
    return any(part in folders for part in path.split("/")[:-1])


def _path_problem(path: str) -> str | None:
    try:
        check_path(path)
    except PathError as error:
        return error.message
    return None


def _is_config(path: str) -> bool:
    return (path == CONFIG_NAME or path.endswith("/" + CONFIG_NAME)) and not _ignored(
        path, (".git", "node_modules")
    )


class DirectoryTree:
    """A workspace folder on disk; symbolic links are followed only while they stay inside."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._resolved_folders: dict[Path, Path] = {}
        self._left_out: dict[str, str] = {}

    def yaml_paths(self) -> list[str]:
        found = []
        for candidate in self.root.rglob("*"):
            relative = candidate.relative_to(self.root).as_posix()
            if candidate.suffix in YAML_SUFFIXES and not _ignored(relative) and candidate.is_file():
                found.append(relative)
        return sorted(self._allowed(found))

    def config_paths(self) -> list[str]:
        return self._allowed(
            relative
            for candidate in self.root.rglob(CONFIG_NAME)
            if _is_config(relative := candidate.relative_to(self.root).as_posix())
            and candidate.is_file()
            and self._inside(candidate)
            and candidate.stat().st_size <= MAX_BYTES
        )

    def left_out(self) -> list[LeftOut]:
        return sorted(self._left_out.items())

    def _allowed(self, paths: Iterable[str]) -> list[str]:
        allowed = []
        for path in paths:
            problem = _path_problem(path)
            if problem is None:
                allowed.append(path)
            else:
                self._left_out[shown(path)] = problem
        return allowed

    def read(self, path: str) -> bytes:
        candidate = self.root / path
        if not self._inside(candidate):
            raise EvalFileError(OUTSIDE_LINK)
        if candidate.stat().st_size > MAX_BYTES:
            raise EvalFileError(TOO_LARGE)
        return candidate.read_bytes()

    def is_file(self, path: str) -> bool:
        candidate = self.root / path
        return candidate.is_file() and self._inside(candidate)

    def _inside(self, path: Path) -> bool:
        """Whether `path`, its links followed, is inside the root. A repository has thousands
        of files in a few hundred folders: each folder is resolved once, and a file only
        when it is a link itself."""
        if path.name in ("", ".", "..") or path.is_symlink():
            return path.resolve().is_relative_to(self.root)
        folder = self._resolved_folders.get(path.parent)
        if folder is None:
            folder = self._resolved_folders[path.parent] = path.parent.resolve()
        return folder.is_relative_to(self.root)


class MappingTree:
    """The files of a snapshot (a git commit): path → size, read in one batch when first needed.

    `load` reads many paths at once (one `git cat-file --batch`). A path the path rule refuses
    is not listed, and the caller leaves out the snapshot's symbolic links (`links`), so none
    is ever followed; both are `left_out` unless in an ignored folder. It is also a formatting
    FileSource.
    """

    def __init__(
        self,
        sizes: Mapping[str, int],
        load: Callable[[list[str]], dict[str, bytes]],
        links: Iterable[str] = (),
    ) -> None:
        self._sizes: dict[str, int] = {}
        self._left_out: list[LeftOut] = [(shown(path), SYMBOLIC_LINK) for path in links]
        for path, size in sizes.items():
            problem = _path_problem(path)
            if problem is None:
                self._sizes[path] = size
            else:
                self._left_out.append((shown(path), problem))
        self._left_out = sorted(item for item in self._left_out if not _ignored(item[0]))
        self._load = load
        self._contents: dict[str, bytes] = {}
        self._unread: frozenset[str] = frozenset()

    def left_out(self) -> list[LeftOut]:
        return list(self._left_out)

    def leave_unread(self, paths: Iterable[str]) -> None:
        """Leave `paths` out of the first batch read: files known not to be needed (read one
        by one if asked for after all)."""
        self._unread = frozenset(paths)

    def paths(self) -> list[str]:
        """Every file of the snapshot, sorted."""
        return sorted(self._sizes)

    def yaml_paths(self) -> list[str]:
        return [
            path
            for path in sorted(self._sizes)
            if path.endswith(YAML_SUFFIXES) and not _ignored(path)
        ]

    def config_paths(self) -> list[str]:
        return [
            path
            for path in sorted(self._sizes)
            if _is_config(path) and self._sizes[path] <= MAX_BYTES
        ]

    def read(self, path: str) -> bytes:
        if path not in self._sizes:
            raise FileNotFoundError(path)
        if self._sizes[path] > MAX_BYTES:
            raise EvalFileError(TOO_LARGE)
        if path not in self._contents:
            # The first read fetches every YAML file and config at once: discovery reads
            # them all, and one batch costs what one file does.
            batch = {*self.yaml_paths(), *self.config_paths()} - self._unread
            batch = ({path} | batch) - self._contents.keys()
            self._contents.update(
                self._load([p for p in batch if self._sizes[p] <= MAX_BYTES or p == path])
            )
        return self._contents[path]

    def is_file(self, path: str) -> bool:
        return path in self._sizes

    def read_text(self, path: str) -> str | None:
        """The UTF-8 text of the file at `path` (a formatting FileSource), None if none."""
        path = posixpath.normpath(path)
        if path not in self._sizes or self._sizes[path] > MAX_BYTES:
            return None
        try:
            return self.read(path).decode("utf-8")
        except UnicodeDecodeError:
            raise UndecodableFileError(path) from None

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
from .yaml_loader import MAX_BYTES

YAML_SUFFIXES = (".yaml", ".yml")
CONFIG_NAME = ".agentv/config.yaml"
OUTSIDE_LINK = "is a symbolic link to a file outside the workspace; it is not read"
TOO_LARGE = f"file is larger than the limit of {MAX_BYTES // 2**20} MiB"


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


def _ignored(path: str, folders: Iterable[str] = IGNORED_FOLDERS) -> bool:
    return any(part in folders for part in path.split("/")[:-1])


def _is_config(path: str) -> bool:
    return (path == CONFIG_NAME or path.endswith("/" + CONFIG_NAME)) and not _ignored(
        path, (".git", "node_modules")
    )


class DirectoryTree:
    """A workspace folder on disk; symbolic links are followed only while they stay inside."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._resolved_folders: dict[Path, Path] = {}

    def yaml_paths(self) -> list[str]:
        found = []
        for candidate in self.root.rglob("*"):
            relative = candidate.relative_to(self.root).as_posix()
            if candidate.suffix in YAML_SUFFIXES and not _ignored(relative) and candidate.is_file():
                found.append(relative)
        return sorted(found)

    def config_paths(self) -> list[str]:
        return [
            relative
            for candidate in self.root.rglob(CONFIG_NAME)
            if _is_config(relative := candidate.relative_to(self.root).as_posix())
            and candidate.is_file()
            and self._inside(candidate)
            and candidate.stat().st_size <= MAX_BYTES
        ]

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

    `load` reads many paths at once (one `git cat-file --batch`); symbolic links of the
    snapshot are not listed, so none is ever followed. It is also a formatting FileSource.
    """

    def __init__(
        self, sizes: Mapping[str, int], load: Callable[[list[str]], dict[str, bytes]]
    ) -> None:
        self._sizes = dict(sizes)
        self._load = load
        self._contents: dict[str, bytes] = {}

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
            batch = {path, *self.yaml_paths(), *self.config_paths()} - self._contents.keys()
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

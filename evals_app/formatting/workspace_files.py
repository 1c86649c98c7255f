"""Reading workspace files and resolving `type: file` blocks (docs/formatting.md, "Resolving a
file block").

A `FileSource` answers "what is the text of this workspace-relative path"; `resolve_file` walks
the eval file's folder and its ancestors to find the file a block names.
"""

from __future__ import annotations

import functools
import os
import posixpath
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

# Opening with these flags refuses a last path component that became a symlink after
# `realpath` looked at it, and does not block on a FIFO (both flags are absent on Windows).
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


class UndecodableFileError(Exception):
    """A workspace file exists but its bytes are not UTF-8 text, or hold NUL, which no text
    column stores (PostgreSQL refuses it): the app takes neither as text."""

    def __init__(self, path: str) -> None:
        super().__init__(f"{path} is not UTF-8 text")
        self.path = path


class FileSource(Protocol):
    """Where the engine reads workspace files from: a folder on disk or the database."""

    def read_text(self, path: str) -> str | None:
        """The text of the regular file at `path` (workspace-relative POSIX), None if there is none.

        Raises `UndecodableFileError` when the file exists but is not UTF-8.
        """
        ...


class MappingFiles:
    """Workspace files held in memory, path → text (the files stored in the database)."""

    def __init__(self, files: Mapping[str, str]) -> None:
        self._files = files

    def read_text(self, path: str) -> str | None:
        """The stored text of `path`, None when no file is stored at that path."""
        return self._files.get(path)


class DirectoryFiles:
    """Workspace files read from a folder on disk; nothing outside the folder is ever read."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._real_root = os.path.realpath(root)
        self._prefix = os.path.join(self._real_root, "")
        # Each file is read at most once: formatting thousands of cases that share a file
        # must not hit the disk thousands of times. Misses and undecodable files are cached too.
        self._cache: dict[str, str | None] = {}
        self.undecodable: set[str] = set()

    def read_text(self, path: str) -> str | None:
        """The UTF-8 text of the regular file at `path` under the root, None if there is none."""
        if path in self.undecodable:
            raise UndecodableFileError(path)
        try:
            return self._cache[path]
        except KeyError:
            pass
        try:
            text = self._read_uncached(path)
        except UnicodeDecodeError:
            text = "\x00"  # not text either
        if text is not None and "\x00" in text:
            self.undecodable.add(path)
            raise UndecodableFileError(path)
        self._cache[path] = text
        return text

    def found_paths(self) -> set[str]:
        """The paths read so far that held a file."""
        return {path for path, text in self._cache.items() if text is not None}

    def _read_uncached(self, path: str) -> str | None:
        real_path = os.path.realpath(os.path.join(self._real_root, path))
        # Symlinks are followed only while they stay inside the workspace (docs/formatting.md,
        # "Resolving a file block", step 3).
        if not real_path.startswith(self._prefix):
            return None
        try:
            fd = os.open(real_path, _OPEN_FLAGS)
        except OSError:
            return None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            with os.fdopen(fd, "rb", closefd=False) as file:
                data = file.read()
        except OSError:  # unreadable (permissions, I/O error): as good as absent
            return None
        finally:
            os.close(fd)
        return data.decode("utf-8")


@dataclass(frozen=True, slots=True)
class ResolvedFile:
    """A workspace file found for a block: its workspace-relative path and its text."""

    path: str
    text: str


@dataclass(frozen=True, slots=True)
class FileResolution:
    """The outcome of resolving one file reference, with the places tried for warnings."""

    display_path: str
    tried: tuple[str, ...]
    file: ResolvedFile | None = None
    undecodable_path: str | None = None


def display_path(value: str) -> str:
    """The path a file block shows: its value with leading `/` and `\\` stripped."""
    return value.lstrip("/\\")


def resolve_file(value: str, eval_path: str, files: FileSource) -> FileResolution:
    """Find the file a block names: from the eval file's folder up to the workspace root.

    The first existing regular file wins; its `\\r\\n` line ends become `\\n`.
    """
    shown = display_path(value)
    candidates = _candidates(eval_path, shown)
    for index, candidate in enumerate(candidates):
        try:
            text = files.read_text(candidate)
        except UndecodableFileError:
            return FileResolution(shown, candidates[: index + 1], undecodable_path=candidate)
        if text is not None:
            # The one place where line ends are normalised, whatever the source.
            if "\r\n" in text:
                text = text.replace("\r\n", "\n")
            return FileResolution(shown, candidates[: index + 1], ResolvedFile(candidate, text))
    return FileResolution(shown, candidates)


def candidate_paths(value: str, eval_path: str) -> tuple[str, ...]:
    """Every workspace path `resolve_file` may read for the reference `value`, in order."""
    return _candidates(eval_path, display_path(value))


@functools.lru_cache(maxsize=4096)
def _candidates(eval_path: str, shown: str) -> tuple[str, ...]:
    """Workspace paths to try, nearest folder first; those that would leave the root are skipped."""
    if not shown:
        return ()
    folder = posixpath.dirname(eval_path)
    found: dict[str, None] = {}
    while True:
        candidate = posixpath.normpath(posixpath.join(folder, shown))
        if not _outside_root(candidate):
            found[candidate] = None
        if not folder:
            return tuple(found)
        folder = posixpath.dirname(folder)


def _outside_root(path: str) -> bool:
    # "." is the root folder itself, never a file.
    return path in (".", "..") or path.startswith(("../", "/"))

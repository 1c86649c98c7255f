"""The files an export writes: where each goes, and how they replace the previous export's.

Every file is written to a temporary file beside its target; once all are written, they are
put on disk together and only then renamed over their targets. An export that fails or is
killed at any moment leaves each file either as it was or complete, never cut off
(docs/formats.md, "Export").
"""

from __future__ import annotations

import ctypes
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Literal, overload

# `.<target name>.<8 random characters>.tmp`, as tempfile.mkstemp names them in `new_file`.
TEMPORARY_NAME = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp")


class ExportFolder:
    """Where each stored path is written under the export folder, refusing any that would lead
    outside it (`..`, or a symbolic link to elsewhere).

    A repository holds thousands of files in a few hundred folders: each folder is resolved,
    checked and created once, so a file costs one `lstat` of its own, not one per folder of its
    path (which, with `mkdir` on every write, took a good part of a large export).
    """

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._root = folder.resolve()
        self._parents: dict[str, Path] = {}

    def target(self, relative: str) -> Path:
        """The path to write `relative` to; its folder exists afterwards."""
        folder_part, _, name = relative.rpartition("/")
        parent = self._parents.get(folder_part)
        if parent is None:
            parent = self._inside((self._folder / folder_part).resolve(), relative)
            parent.mkdir(parents=True, exist_ok=True)
            self._parents[folder_part] = parent
        target = parent / name
        if name in ("", ".", "..") or target.is_symlink():
            return self._inside(target.resolve(), relative)
        return target

    def _inside(self, path: Path, relative: str) -> Path:
        if not path.is_relative_to(self._root):
            raise ValueError(f"refusing to write outside the export folder: {relative!r}")
        return path


def remove_stale_temporary_files(folder: Path) -> None:
    """Delete the temporary files of an earlier export that was killed (SIGKILL, power loss:
    its own clean-up never ran). Only names that `WrittenFiles.new_file` makes are touched."""
    if not folder.is_dir():
        return
    for path in folder.rglob(".*.tmp"):
        if TEMPORARY_NAME.fullmatch(path.name) and path.is_file() and not path.is_symlink():
            path.unlink(missing_ok=True)


class WrittenFiles:
    """The temporary files of one export, put in place together when the `with` block ends.

    Syncing each file before its rename costs milliseconds per file, which for a repository of
    thousands of eval files was most of the export. Instead the file system is synced once
    (Linux's `syncfs`, one call per file system the files are on), and then every file is
    renamed over its target. Where `syncfs` is missing, each file is synced as it is closed.
    If the block raises, every temporary file is removed and no target is touched.
    """

    def __init__(self) -> None:
        self._written: list[tuple[str, Path]] = []
        self._by_device: dict[int, str] = {}  # a temporary file on each file system written to

    def __enter__(self) -> WrittenFiles:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        renamed = 0
        try:
            if kind is None:
                self._sync()
                for temporary, target in self._written:
                    os.replace(temporary, target)
                    renamed += 1
        finally:
            for temporary, _ in self._written[renamed:]:
                Path(temporary).unlink(missing_ok=True)

    @overload
    @contextmanager
    def new_file(self, target: Path, mode: Literal["w"] = "w") -> Iterator[IO[str]]: ...

    @overload
    @contextmanager
    def new_file(self, target: Path, mode: Literal["wb"]) -> Iterator[IO[bytes]]: ...

    @contextmanager
    def new_file(self, target: Path, mode: str = "w") -> Iterator[IO[str]] | Iterator[IO[bytes]]:
        """A file open for writing that replaces `target` (whose folder exists) when the
        export is complete; text is written as UTF-8 with `\\n` line ends."""
        descriptor, temporary = _temporary_beside(target)
        try:
            if mode == "wb":
                handle: IO[str] | IO[bytes] = os.fdopen(descriptor, "wb")
            else:
                handle = os.fdopen(descriptor, "w", encoding="utf-8", newline="\n")
            with handle:
                yield handle
                device = _finish(handle)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        self.adopt(temporary, target, device)

    def adopt(self, temporary: str, target: Path, device: int) -> None:
        """Put `temporary`, a complete file that `write_temporary` wrote on `device`, in place
        of `target` with the others."""
        self._written.append((temporary, target))
        if _syncfs is not None:
            self._by_device.setdefault(device, temporary)

    def _sync(self) -> None:
        for temporary in self._by_device.values():
            descriptor = os.open(temporary, os.O_RDONLY)
            try:
                if _syncfs is not None and _syncfs(descriptor) != 0:
                    error = ctypes.get_errno()
                    raise OSError(error, f"syncing the export to disk: {os.strerror(error)}")
            finally:
                os.close(descriptor)


def write_temporary(target: Path, pieces: Iterable[str]) -> tuple[str, int]:
    """Write `pieces` as UTF-8 to a new temporary file beside `target` (whose folder exists),
    for `WrittenFiles.adopt`: its path and the device of its file system. Export workers write
    files so; the file is removed if writing fails."""
    descriptor, temporary = _temporary_beside(target)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as handle:
            for piece in pieces:
                handle.write(piece)
            return temporary, _finish(handle)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_temporary_bytes(target: Path, pieces: Iterable[bytes]) -> str:
    """`write_temporary` of bytes; only the path (the file is copied, not put in place)."""
    descriptor, temporary = _temporary_beside(target)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.writelines(pieces)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return temporary


def _temporary_beside(target: Path) -> tuple[int, str]:
    descriptor, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        # mkstemp creates the file private (0600); an exported file gets the usual permissions.
        os.chmod(temporary, 0o666 & ~_current_umask())
    except BaseException:
        os.close(descriptor)
        Path(temporary).unlink(missing_ok=True)
        raise
    return descriptor, temporary


def _finish(handle: IO[str] | IO[bytes]) -> int:
    """Flush `handle` (still open); synced now where `syncfs` is missing. Its device."""
    handle.flush()
    if _syncfs is None:
        os.fsync(handle.fileno())
    return os.fstat(handle.fileno()).st_dev


def _load_syncfs() -> Callable[[int], int] | None:
    try:
        function: Callable[[int], int] = ctypes.CDLL(None, use_errno=True).syncfs
    except (AttributeError, OSError):  # not Linux
        return None
    return function


_syncfs = _load_syncfs()


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask

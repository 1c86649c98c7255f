"""The files an export writes: where each goes, and how they replace the previous export's.

Every file is written to a temporary file beside its target; once all are written, they are
put on disk together and only then renamed over their targets. An export that fails or is
killed at any moment leaves each file either as it was or complete, never cut off
(docs/formats.md, "Export").
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, NamedTuple

try:
    import fcntl
except ImportError:  # not Unix
    fcntl = None  # type: ignore[assignment]

# `.<target name>.<8 random characters>.tmp` (`_temporary_beside`; tempfile.mkstemp's names,
# which an earlier export used, have that form too).
TEMPORARY_NAME = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp")


class ExportFolder:
    """Where each stored path is written under the export folder, refusing any that would lead
    outside it (`..`, or a symbolic link to elsewhere).

    A repository holds thousands of files in a few hundred folders: each folder is checked and
    created once, one name at a time from its parent's (resolved already), so a file costs one
    `lstat` of its own and a folder one more (resolving whole paths, with `mkdir` on every
    write, took a good part of a large export).
    """

    def __init__(self, folder: Path) -> None:
        self._root = folder.resolve()
        self._folders: dict[str, Path] = {}

    def target(self, relative: str) -> Path:
        """The path to write `relative` to; its folder exists afterwards."""
        folder_part, _, name = relative.rpartition("/")
        return self._checked(self._folder(folder_part, relative), name, relative)

    def _folder(self, part: str, relative: str) -> Path:
        """The folder `part` of the path `relative` (`a/b`), resolved, checked and created."""
        folder = self._folders.get(part)
        if folder is None:
            if part:
                above, _, name = part.rpartition("/")
                folder = self._checked(self._folder(above, relative), name, relative)
                folder.mkdir(exist_ok=True)
            else:
                folder = self._root
                folder.mkdir(parents=True, exist_ok=True)
            self._folders[part] = folder
        return folder

    def _checked(self, folder: Path, name: str, relative: str) -> Path:
        """`folder / name`, resolved where it could lead elsewhere (`..`, a symbolic link)."""
        path = folder / name
        if name in ("", ".", "..") or path.is_symlink():
            return self._inside(path.resolve(), relative)
        return path

    def _inside(self, path: Path, relative: str) -> Path:
        if not path.is_relative_to(self._root):
            raise ValueError(f"refusing to write outside the export folder: {relative!r}")
        return path


@contextmanager
def held_folder(folder: Path) -> Iterator[None]:
    """Hold `folder` (made if missing) for one export at a time: another export into it waits
    until this one is done. The hold is a `flock` of the folder, which ends with the process
    however it ends (where there is none, not Unix, nothing is held). So the temporary files
    found in it when it is taken are a killed export's, and are removed; so are those left
    when the export fails (a worker process that died could not remove its own)."""
    folder.mkdir(parents=True, exist_ok=True)
    with _locked(folder):
        _remove_temporary_files(folder)
        try:
            yield
        except BaseException:
            _remove_temporary_files(folder)
            raise


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """An exclusive `flock` of `folder` for the block; nothing where there is none."""
    if fcntl is None:
        yield
        return
    descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # and with it the lock


def _remove_temporary_files(folder: Path) -> None:
    """Delete the temporary files under `folder` (only names that this module makes)."""
    for path in folder.rglob(".*.tmp"):
        if TEMPORARY_NAME.fullmatch(path.name) and path.is_file() and not path.is_symlink():
            path.unlink(missing_ok=True)


class TemporaryFile(NamedTuple):
    """A complete file written beside its target, for `WrittenFiles.adopt`."""

    path: str
    target: Path
    device: int  # of its file system


class WrittenFiles:
    """The temporary files of one export, put in place together when the `with` block ends.

    Syncing each file before its rename costs milliseconds per file, which for a repository of
    thousands of eval files was most of the export. Instead the file system is synced once
    (Linux's `syncfs`, one call per file system the files are on), and then every file is
    renamed over its target. Where `syncfs` is missing, each file is synced as it is closed.
    If the block raises, every temporary file is removed and no target is touched.
    """

    def __init__(self) -> None:
        self._written: list[TemporaryFile] = []
        self._by_device: dict[int, str] = {}  # a temporary file on each file system written to
        self._ahead: threading.Thread | None = None

    def __enter__(self) -> WrittenFiles:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        renamed = 0
        try:
            if self._ahead is not None:
                self._ahead.join()
            if kind is None:
                _sync(list(self._by_device.values()))
                for file in self._written:
                    os.replace(file.path, file.target)
                    renamed += 1
        finally:
            for file in self._written[renamed:]:
                Path(file.path).unlink(missing_ok=True)

    @contextmanager
    def new_file(self, target: Path) -> Iterator[IO[bytes]]:
        """A file open for writing bytes that replaces `target` (whose folder exists) when the
        export is complete (text files: `write_temporary`, then `adopt`)."""
        with temporary_bytes(target) as (handle, temporary):
            yield handle
            device = _finish(handle)
        self.adopt(TemporaryFile(temporary, target, device))

    def adopt(self, file: TemporaryFile) -> None:
        """Put `file` (as `write_temporary` wrote it) in place of its target with the others."""
        self._written.append(file)
        if _syncfs is not None:
            self._by_device.setdefault(file.device, file.path)

    def sync_ahead(self) -> None:
        """Start putting what is written so far on disk, in the background, unless that is
        under way already: the sync when the block ends then has little left to wait for."""
        if _syncfs is None or (self._ahead is not None and self._ahead.is_alive()):
            return
        self._ahead = threading.Thread(
            target=_sync_ahead, args=(list(self._by_device.values()),), daemon=True
        )
        self._ahead.start()


def _sync(paths: list[str]) -> None:
    """`syncfs` the file system of each file of `paths` (one per file system)."""
    for path in paths:
        descriptor = os.open(path, os.O_RDONLY)
        try:
            if _syncfs is not None and _syncfs(descriptor) != 0:
                error = ctypes.get_errno()
                raise OSError(error, f"syncing the export to disk: {os.strerror(error)}")
        finally:
            os.close(descriptor)


def _sync_ahead(paths: list[str]) -> None:
    with suppress(OSError):  # the sync when the export ends says what failed
        _sync(paths)


def write_temporary(target: Path, data: bytes) -> TemporaryFile:
    """Write `data` to a new temporary file beside `target` (whose folder exists), for
    `WrittenFiles.adopt`. Export workers write files so; the file is removed if writing
    fails."""
    descriptor, temporary = _temporary_beside(target)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            return TemporaryFile(temporary, target, _finish(handle))
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@contextmanager
def temporary_bytes(target: Path) -> Iterator[tuple[IO[bytes], str]]:
    """A new temporary file beside `target`, open for writing bytes, and its path; removed if
    the block raises."""
    descriptor, temporary = _temporary_beside(target)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            yield handle, temporary
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _temporary_beside(target: Path) -> tuple[int, str]:
    """A new file beside `target`, open for writing, and its path. Created as
    `tempfile.mkstemp` does (a name nobody has, never following a link) but with the usual
    permissions of a new file (the umask's, as any program writing the file would give it),
    in one system call."""
    for _ in range(_ATTEMPTS):
        temporary = f"{target.parent}/.{target.name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(temporary, _CREATE, 0o666), temporary
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no unused temporary name beside", str(target))


_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC
_ATTEMPTS = 100


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

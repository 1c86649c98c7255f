"""Unpacking an uploaded .zip of a workspace folder into a temporary folder, refusing what is
unsafe: paths that leave the folder or that the path rule refuses (eval_files/paths.py), links,
and archives that expand beyond the limits.

Every size is checked twice: the sizes the archive declares, before anything is written, and
the bytes actually decompressed, while writing, since a crafted archive can declare less than
it holds (a "zip bomb").
"""

from __future__ import annotations

import errno
import re
import stat
import unicodedata
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from ...eval_files.paths import PathError, check_path, shown
from ...eval_files.yaml_loader import MAX_BYTES

CHUNK_BYTES = 64 * 1024
# Folders that archivers add beside the real content (macOS keeps resource forks there).
IGNORED_TOP_FOLDERS = frozenset({"__MACOSX"})
GIT_FOLDER = ".git"
WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:")


@dataclass(frozen=True)
class ZipLimits:
    """How large an uploaded archive may be, and how much it may unpack to."""

    compressed_bytes: int = 50 * 2**20
    uncompressed_bytes: int = 256 * 2**20
    entries: int = 10_000
    # As large as a YAML file the importer reads (formatting/yaml_loader.py).
    file_bytes: int = MAX_BYTES


class ZipRefused(Exception):
    """The archive cannot be unpacked safely; `entry` names the member at fault, if one is."""

    def __init__(self, message: str, entry: str = "") -> None:
        super().__init__(f"{entry}: {message}" if entry else message)
        self.message = message
        self.entry = entry


def extract_zip(source: IO[bytes], destination: Path, limits: ZipLimits) -> Path:
    """Unpack the archive `source` into the empty folder `destination`.

    Returns the folder to import: the archive's single top folder when every file sits under
    one, else `destination`. Raises ZipRefused (having possibly written part of it, so the
    caller removes `destination`) when the archive is too large, damaged or unsafe.
    """
    source.seek(0, 2)
    size = source.tell()
    source.seek(0)
    if size > limits.compressed_bytes:
        raise ZipRefused(f"The .zip is {size:,} bytes; the limit is {limits.compressed_bytes:,}.")
    try:
        archive = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError):
        raise ZipRefused("This is not a .zip file, or it is damaged.") from None
    with archive:
        members = _checked_members(archive.infolist(), limits)
        written = 0
        for info, parts in members:
            target = destination.joinpath(*parts)
            written += _extract_member(archive, info, target, limits, written)
    return _import_root(destination, [parts for _, parts in members])


def _checked_members(
    infos: list[zipfile.ZipInfo], limits: ZipLimits
) -> list[tuple[zipfile.ZipInfo, list[str]]]:
    """The archive's files with their path segments, once every declared fact is checked."""
    if len(infos) > limits.entries:
        raise ZipRefused(f"The .zip has {len(infos):,} entries; the limit is {limits.entries:,}.")
    declared = sum(info.file_size for info in infos)
    if declared > limits.uncompressed_bytes:
        raise ZipRefused(
            f"The .zip would unpack to {declared:,} bytes; the limit is "
            f"{limits.uncompressed_bytes:,}."
        )
    members: list[tuple[zipfile.ZipInfo, list[str]]] = []
    seen: set[str] = set()
    for info in infos:
        parts = _safe_parts(info)
        if info.is_dir() or not parts or parts[0] in IGNORED_TOP_FOLDERS:
            continue
        if GIT_FOLDER in parts[:-1]:
            continue  # a zipped checkout's repository, which an import never reads
        try:
            key = check_path("/".join(parts))  # the one path rule (eval_files/paths.py)
        except PathError as error:
            raise ZipRefused(error.message, shown(info.filename)) from None
        if info.file_size > limits.file_bytes:
            raise ZipRefused(
                f"it is {info.file_size:,} bytes; a file may be at most {limits.file_bytes:,}.",
                info.filename,
            )
        if key in seen:
            raise ZipRefused("it appears twice in the .zip.", info.filename)
        seen.add(key)
        members.append((info, parts))
    if not members:
        raise ZipRefused("The .zip holds no files.")
    return members


def _safe_parts(info: zipfile.ZipInfo) -> list[str]:
    """The entry's path segments, if it is a plain file or folder inside the archive's root."""
    name = info.filename
    if any(unicodedata.category(char) == "Cc" for char in name):
        raise ZipRefused("its name contains control characters.", name)
    if "\\" in name:
        raise ZipRefused("its name contains a backslash; zip paths use /.", name)
    if name.startswith("/") or WINDOWS_DRIVE.match(name):
        raise ZipRefused("it has an absolute path; only relative paths can be unpacked.", name)
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise ZipRefused("its path leaves the folder (..).", name)
    mode = info.external_attr >> 16
    if stat.S_ISLNK(mode):
        raise ZipRefused("it is a symbolic link; links are not unpacked.", name)
    # Archivers that do not record a file type leave those bits 0 (zipfile.writestr does).
    if stat.S_IFMT(mode) and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise ZipRefused("it is not a regular file or folder.", name)
    if info.flag_bits & 0x1:
        raise ZipRefused("it is encrypted.", name)
    return parts


def _extract_member(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, limits: ZipLimits, so_far: int
) -> int:
    """Write one member to `target`, counting the bytes that come out; returns their number."""
    name = info.filename
    allowed = min(info.file_size, limits.file_bytes, limits.uncompressed_bytes - so_far)
    written = 0
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with archive.open(info) as member, target.open("xb") as out:
            while chunk := member.read(CHUNK_BYTES):
                written += len(chunk)
                if written > allowed:
                    raise ZipRefused(
                        f"it unpacks to more than the {info.file_size:,} bytes it declares "
                        "or the limits allow.",
                        name,
                    )
                out.write(chunk)
    # ValueError: an entry whose recorded offset lies before the file ("negative seek value").
    except (zipfile.BadZipFile, EOFError, zlib.error, ValueError) as error:
        raise ZipRefused(f"it is damaged ({error}).", name) from None
    except NotImplementedError:  # how zipfile says it lacks an entry's compression method
        raise ZipRefused("it uses a compression method that is not supported.", name) from None
    except OSError as error:
        if error.errno == errno.EINVAL:
            # The same negative seek in a file on disk (an upload kept for the worker).
            raise ZipRefused(f"it is damaged ({error.strerror}).", name) from None
        raise ZipRefused(
            "it clashes with another entry (a file cannot be a folder).", name
        ) from None
    return written


def _import_root(destination: Path, files: list[list[str]]) -> Path:
    tops = {parts[0] for parts in files}
    if len(tops) == 1 and all(len(parts) > 1 for parts in files):
        return destination / tops.pop()
    return destination

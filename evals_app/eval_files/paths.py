"""The one path rule: which workspace paths the app stores, reads from a repository or a folder,
and writes into a git tree (docs/formats.md, "Paths").

A path is relative, POSIX and normalised; every folder and file name is one git can check out
on every system (no `.git` in any spelling git itself refuses, no `.gitmodules`), every
character is visible text, and it fits the database columns (1,000 characters) and file
systems (255 bytes a name).
"""

from __future__ import annotations

import re
import unicodedata

MAX_PATH_LENGTH = 1000  # the max_length of WorkspaceFile.path and Suite.path
MAX_NAME_BYTES = 255  # a file or folder name on ext4, APFS, NTFS
# Control characters, invisible format characters (bidirectional overrides can make a path
# read differently from what it is), line or paragraph separators, and surrogates (a name
# that was not UTF-8, decoded with `surrogateescape`, or a lone surrogate).
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
# What git reads as its own folder or as the submodule list: in any case, with the dots and
# spaces NTFS drops from the end of a name or an NTFS stream after `:`, and NTFS short names
# (git's fsck: is_hfs_dotgit, is_ntfs_dotgit, is_ntfs_dotgitmodules).
GIT_NAME = re.compile(r"(\.git|git~1|\.gitmodules|gitmod~[1-4])[. ]*(:.*)?", re.I | re.S)
# NTFS's fall-back short names of .gitmodules: up to six letters of "gi7eba", ~, digits.
GITMODULES_SHORT_NAME = re.compile(r"(g|gi|gi7|gi7e|gi7eb|gi7eba)?~[1-9][0-9]*", re.I)
NAME_ENDING = re.compile(r"[. ]*(:.*)?", re.S)
# The code points HFS+ ignores in a name, as git's is_hfs_dotgit skips them.
HFS_IGNORED = dict.fromkeys(
    [0x200C, 0x200D, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x206A, 0x2070), 0xFEFF]
)

REQUIRED = "A path is required."
TOO_LONG = f"A path can be at most {MAX_PATH_LENGTH} characters."
NOT_UTF8 = "A path must be UTF-8 text; this one has bytes that are not (shown as \\x..)."
BACKSLASH = "Separate folders with / (a POSIX path), not \\."
INVISIBLE = "A path cannot contain control characters or invisible formatting characters."
ABSOLUTE = "The path must be relative to the workspace root."
SPACES = "A path cannot start or end with a space, nor can a folder or file name."
DOTS = "The path cannot contain . or .. folders."
EMPTY_NAME = "The path has an empty folder name (// or a trailing /)."
GIT_FOLDER = "A path cannot use a name git keeps for itself (.git in any spelling, .gitmodules)."
NAME_TOO_LONG = f"A folder or file name can be at most {MAX_NAME_BYTES} bytes of UTF-8."


class PathError(Exception):
    """A path the path rule refuses; `message` says why, `path` is the path as given."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(f"{shown(path)}: {message}")
        self.message = message
        self.path = path


def check_path(path: str) -> str:
    """`path`, if the path rule allows it; raises PathError saying what is wrong otherwise.

    Spaces around the path or a name are refused rather than dropped: a stored path is the
    one given.
    """
    if not path.strip():
        raise PathError(REQUIRED, path)
    if len(path) > MAX_PATH_LENGTH:
        raise PathError(TOO_LONG, path)
    # Most paths are ASCII: no surrogate, and the only refused characters are controls,
    # which `isprintable` finds without a look-up per character.
    is_ascii = path.isascii()
    if not is_ascii and any(0xD800 <= ord(char) <= 0xDFFF for char in path):
        raise PathError(NOT_UTF8, path)
    if "\\" in path:
        raise PathError(BACKSLASH, path)
    if (
        not path.isprintable()
        if is_ascii
        else any(unicodedata.category(char) in REFUSED_CATEGORIES for char in path)
    ):
        raise PathError(INVISIBLE, path)
    if path.startswith("/"):
        raise PathError(ABSOLUTE, path)
    segments = path.split("/")
    if any(segment != segment.strip() for segment in segments):
        raise PathError(SPACES, path)
    if ".." in segments or "." in segments:
        raise PathError(DOTS, path)
    if "" in segments:
        raise PathError(EMPTY_NAME, path)
    if any(is_git_name(segment) for segment in segments):
        raise PathError(GIT_FOLDER, path)
    if any(len(segment.encode("utf-8")) > MAX_NAME_BYTES for segment in segments):
        raise PathError(NAME_TOO_LONG, path)
    return path


def is_git_name(name: str) -> bool:
    """Whether git reads the file or folder name `name` as `.git` or `.gitmodules` on some
    file system (HFS+ ignores some invisible characters, which `check_path` also refuses)."""
    name = name.translate(HFS_IGNORED)
    if GIT_NAME.fullmatch(name):
        return True
    short, ending = name[:8], name[8:]
    return len(short) == 8 and bool(
        GITMODULES_SHORT_NAME.fullmatch(short) and NAME_ENDING.fullmatch(ending)
    )


def tree_entry_problem(name: str) -> str | None:
    """Why `name` cannot be one entry of a git tree the app writes, or None when it can.

    The last check before `git mktree` (services/git_repository.write_tree): only what would
    make the tree fail `git fsck --strict` or be checked out as something else.
    """
    if name in ("", ".", ".."):
        return "an empty, . or .. name"
    if "/" in name or "\0" in name:
        return "a name with / or NUL"
    if is_git_name(name):
        return "a name git keeps for itself (.git, .gitmodules)"
    try:
        name.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return "a name that is not text git can store"
    return None


def shown(path: str) -> str:
    """`path` as it can be shown in a message: invisible characters, bytes that were not UTF-8
    (`surrogateescape`) and lone surrogates written as escapes, the rest as it is."""
    return "".join(_shown_char(char) for char in path)


def _shown_char(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8
        return f"\\x{code - 0xDC00:02x}"
    if unicodedata.category(char) in REFUSED_CATEGORIES:
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return char

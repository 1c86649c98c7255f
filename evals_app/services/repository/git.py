"""The one place that talks to git: the `git` binary, run with argument lists, never a shell.

Reading a commit (ls-tree, cat-file) never looks at the work tree; writing one (hash-object,
mktree, commit-tree, update-ref) never touches the work tree, the index or the checked-out
branch (docs/sync.md, "Publishing").
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ...eval_files.paths import shown, tree_entry_problem

GIT = "git"
TREE_MODE = "040000"
FILE_MODE = "100644"
# Blob modes whose content is a file's text; a symbolic link's (120000) is its target.
TEXT_FILE_MODES = frozenset({FILE_MODE, "100755"})
FALLBACK_IDENTITY = ("agentv-web", "agentv-web@localhost")
# Variables that would point git at another repository, index or work tree than the one named.
_LOCATION_VARIABLES = {"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"}
# The repository is not trusted to run anything: its hooks (`reference-transaction` runs on
# every update-ref, `core.hooksPath` may point anywhere) and its file-system monitor command
# are turned off on every call (docs/sync.md, "What git is allowed to run").
_SAFE_CONFIGURATION = ("-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false")
# The longest object id git prints (SHA-256); a header line is the id, the type and the size.
_HEADER_LIMIT = 200


def _environment(extra: dict[str, str] | None) -> dict[str, str]:
    inherited = {k: v for k, v in os.environ.items() if k not in _LOCATION_VARIABLES}
    return {**inherited, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C", **(extra or {})}


class GitError(Exception):
    """A git command failed, or a repository is not what was expected; the message says why."""


class InvalidBranchName(GitError):
    """A branch name git would refuse, or one that names something other than a branch."""

    def __init__(self, branch: str, why: str = "") -> None:
        super().__init__(f"not a valid branch name: {branch!r}" + (f" ({why})" if why else ""))


class BranchMoved(GitError):
    """A branch was not at the commit expected when it was to be moved; it was left alone."""


@dataclass(frozen=True, slots=True)
class TreeEntry:
    """One entry of a tree: mode, object type, object id and name (a path for a listing)."""

    mode: str
    kind: str
    object_id: str
    name: str
    size: int | None = None


@dataclass(frozen=True)
class WorkTreeLocation:
    """Where a folder sits in a git work tree: the repository's top folder, the folder's path
    inside it ("" for the top), and the checked-out branch ("" when detached)."""

    top: Path
    folder: str
    branch: str


def _git(
    repository: Path,
    *arguments: str,
    input_bytes: bytes | None = None,
    check: bool = True,
    environment: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    try:
        result = subprocess.run(
            [GIT, "-C", str(repository), *_SAFE_CONFIGURATION, *arguments],
            input=input_bytes,
            capture_output=True,
            env=_environment(environment),
            check=False,
        )
    except OSError as error:  # no git installed (make installs Debian's), or not runnable
        raise GitError(f"git cannot be run: {error.strerror}") from None
    if check and result.returncode != 0:
        message = result.stderr.decode("utf-8", "replace").strip() or "failed"
        raise GitError(f"git {arguments[0]}: {message}")
    return result


def locate(folder: Path) -> WorkTreeLocation | None:
    """The work tree `folder` is in, or None when it is in none (or git is not installed)."""
    try:
        result = _git(folder, "rev-parse", "--show-toplevel", "--show-prefix", check=False)
    except GitError:
        return None
    if result.returncode != 0:
        return None
    top, prefix = result.stdout.decode("utf-8").splitlines()[:2]
    branch = _git(folder, "symbolic-ref", "--quiet", "--short", "HEAD", check=False)
    return WorkTreeLocation(Path(top), prefix.rstrip("/"), branch.stdout.decode("utf-8").strip())


def resolve_commit(repository: Path, ref: str) -> str:
    """The id of the commit `ref` names. Raises GitError when it names none."""
    if ref.startswith("-"):
        raise GitError(f"not a ref: {ref!r}")
    result = _git(repository, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
    if result.returncode != 0:
        raise GitError(f"no commit named {ref!r} in {repository}")
    return result.stdout.decode("ascii").strip()


def branch_commit(repository: Path, branch: str) -> str | None:
    """The commit branch `branch` (`refs/heads/BRANCH`, never a tag) points at, None when
    there is no such branch. Raises InvalidBranchName."""
    check_branch_name(repository, branch)
    result = _git(
        repository, "rev-parse", "--verify", "--quiet", f"refs/heads/{branch}", check=False
    )
    return result.stdout.decode("ascii").strip() if result.returncode == 0 else None


def check_branch_name(repository: Path, branch: str) -> None:
    """Raise InvalidBranchName unless `branch` is a branch name as it is spelled.

    `git check-ref-format --branch` accepts `@` (read as HEAD) and expands `@{-1}`; only a
    name it gives back unchanged names a branch of that name.
    """
    if branch.startswith("-") or branch == "@":
        raise InvalidBranchName(branch)
    result = _git(repository, "check-ref-format", "--branch", branch, check=False)
    if result.returncode != 0 or result.stdout.decode("utf-8", "replace").strip() != branch:
        raise InvalidBranchName(branch)


def is_ancestor(repository: Path, older: str, newer: str) -> bool:
    """Whether commit `older` is `newer` or one of its ancestors."""
    return (
        _git(repository, "merge-base", "--is-ancestor", older, newer, check=False).returncode == 0
    )


def list_files(
    repository: Path, commit: str, folder: str, *, sizes: bool = True
) -> list[TreeEntry]:
    """Every file (blob or symbolic link) under `folder` of `commit`, paths relative to
    `folder`; without `sizes`, their sizes are not looked up (git then reads only trees,
    not every file's object)."""
    arguments = ["ls-tree", "-r", *(["-l"] if sizes else []), "-z", "--full-tree", commit]
    if folder:
        arguments += ["--", f"{folder}/"]
    output = _git(repository, *arguments).stdout
    prefix = f"{folder}/" if folder else ""
    entries = []
    for record in output.split(b"\0"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        mode, kind, object_id, *size = meta.decode("ascii").split()
        path = raw_path.decode("utf-8", "surrogateescape")
        if kind != "blob" or not path.startswith(prefix):
            continue
        length = int(size[0]) if size else None
        entries.append(TreeEntry(mode, kind, object_id, path[len(prefix) :], length))
    return entries


def blob_sizes(repository: Path, object_ids: Iterable[str]) -> dict[str, int]:
    """The size of each blob of `object_ids` (one `git cat-file --batch-check`)."""
    wanted = list(dict.fromkeys(object_ids))
    if not wanted:
        return {}
    listing = "".join(f"{object_id}\n" for object_id in wanted).encode()
    output = _git(repository, "cat-file", "--batch-check", input_bytes=listing).stdout
    sizes = {}
    for line in output.decode("ascii", "replace").splitlines():
        words = line.split(" ")
        if len(words) != 3:  # "ID missing"
            raise GitError(f"git cat-file: object {words[0]} is missing")
        sizes[words[0]] = int(words[2])
    return sizes


def read_blobs(
    repository: Path, object_ids: Iterable[str], *, max_bytes: int | None = None
) -> dict[str, bytes]:
    """The contents of the blobs `object_ids`, read by one `git cat-file --batch`.

    Each blob is read from git's output as it comes, asked for one at a time, so memory
    holds the contents and nothing more; with `max_bytes`, more than that in all is refused
    (GitError) before the blob that would pass it is read.
    """
    wanted = list(dict.fromkeys(object_ids))
    if not wanted:
        return {}
    try:
        process = subprocess.Popen(
            [GIT, "-C", str(repository), *_SAFE_CONFIGURATION, "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=_environment(None),
        )
    except OSError as error:
        raise GitError(f"git cannot be run: {error.strerror}") from None
    assert process.stdin is not None and process.stdout is not None
    contents: dict[str, bytes] = {}
    total = 0
    try:
        for object_id in wanted:
            # One request at a time: git flushes each answer, and neither pipe can fill up
            # while the other side waits.
            process.stdin.write(f"{object_id}\n".encode())
            process.stdin.flush()
            header = process.stdout.readline(_HEADER_LIMIT).decode("ascii", "replace").split()
            if len(header) != 3:
                raise GitError(f"git cat-file: object {object_id} is missing")
            size = int(header[2])
            total += size
            if max_bytes is not None and total > max_bytes:
                raise GitError(
                    f"the files to read are larger than the limit of {max_bytes} bytes in all"
                )
            contents[object_id] = _read_exactly(process.stdout, size, object_id)
            _read_exactly(process.stdout, 1, object_id)  # the newline after the content
    except BrokenPipeError:
        raise GitError("git cat-file stopped before every object was read") from None
    finally:
        process.stdin.close()
        process.kill()
        process.wait()
        process.stdout.close()
    return contents


def _read_exactly(stream: IO[bytes], size: int, object_id: str) -> bytes:
    content = stream.read(size)
    if len(content) != size:
        raise GitError(f"git cat-file: object {object_id} was cut short")
    return content


def blob_id(content: bytes, length: int = 40) -> str:
    """The id git gives `content` as a blob, without running git: SHA-1, or SHA-256 for a
    repository whose ids are `length` 64."""
    algorithm = hashlib.sha256 if length == 64 else hashlib.sha1
    return algorithm(b"blob %d\0" % len(content) + content).hexdigest()


def write_blob(repository: Path, content: bytes) -> str:
    """Store `content` as a blob in the repository's objects; returns its id."""
    return (
        # No filters: a repository's clean filter is a command it names.
        _git(repository, "hash-object", "-w", "--no-filters", "--stdin", input_bytes=content)
        .stdout.decode("ascii")
        .strip()
    )


def tree_of(repository: Path, commit: str) -> str:
    """The id of the top tree of `commit`."""
    return resolve_tree(repository, f"{commit}^{{tree}}")


def resolve_tree(repository: Path, name: str) -> str:
    """The id of the tree `name` (e.g. `COMMIT^{tree}`) names."""
    return _git(repository, "rev-parse", "--verify", name).stdout.decode("ascii").strip()


def read_tree(repository: Path, tree: str) -> list[TreeEntry]:
    """The entries of one tree (not recursive)."""
    entries = []
    for record in _git(repository, "ls-tree", "-z", tree).stdout.split(b"\0"):
        if record:
            meta, _, name = record.partition(b"\t")
            mode, kind, object_id = meta.decode("ascii").split()
            entries.append(
                TreeEntry(mode, kind, object_id, name.decode("utf-8", "surrogateescape"))
            )
    return entries


def write_tree(
    repository: Path, base_tree: str | None, changes: dict[str, str | None], folder: str = ""
) -> str:
    """A tree like `base_tree` with each path of `changes` set to a blob id (None: removed).

    Only the trees on the way to a changed path are written again (`git mktree`); every other
    subtree keeps its id, and a changed file keeps its mode (100755 stays executable). Folders
    left empty disappear, as git has no empty folders. Raises GitError, having written no
    tree, for a name git could not check out (`..`, `.git`, …; eval_files/paths.py), in
    `changes` or already in `base_tree` (the new tree would carry it), and for a path where
    the base has a symbolic link or a submodule, which app text never replaces.
    """
    _check_names(changes, folder)
    if base_tree is not None:
        _check_base_names(repository, base_tree)
    written = _written_tree(repository, base_tree, changes, folder)
    return written if written is not None else _make_tree(repository, [])


def _written_tree(
    repository: Path, base_tree: str | None, changes: dict[str, str | None], folder: str
) -> str | None:
    """`write_tree` below the top; None, and nothing written, for a tree left empty."""
    entries = {entry.name: entry for entry in read_tree(repository, base_tree)} if base_tree else {}
    nested: dict[str, dict[str, str | None]] = {}
    for path, blob in changes.items():
        head, slash, rest = path.partition("/")
        existing = entries.get(head)
        if slash:
            nested.setdefault(head, {})[rest] = blob
        elif blob is None:
            entries.pop(head, None)
        elif existing is None or existing.kind == "tree":
            entries[head] = TreeEntry(FILE_MODE, "blob", blob, head)
        else:
            _check_text_file(existing, folder)
            entries[head] = TreeEntry(existing.mode, "blob", blob, head)
    for name, inner in nested.items():
        existing = entries.get(name)
        if existing is not None and existing.kind != "tree":
            _check_text_file(existing, folder)  # a file that becomes a folder, not a link
        subtree = existing.object_id if existing is not None and existing.kind == "tree" else None
        written = _written_tree(repository, subtree, inner, f"{folder}{name}/")
        if written is None:
            entries.pop(name, None)
        else:
            entries[name] = TreeEntry(TREE_MODE, "tree", written, name)
    if not entries:
        return None
    return _make_tree(repository, list(entries.values()))


def _make_tree(repository: Path, entries: list[TreeEntry]) -> str:
    listing = b"".join(
        f"{entry.mode} {entry.kind} {entry.object_id}\t".encode() + _name_bytes(entry.name) + b"\0"
        for entry in entries
    )
    return _git(repository, "mktree", "-z", input_bytes=listing).stdout.decode("ascii").strip()


def _check_names(changes: dict[str, str | None], folder: str) -> None:
    """Raise GitError when a name on the way to a changed path cannot be a tree entry."""
    for path in changes:
        for name in path.split("/"):
            problem = tree_entry_problem(name)
            if problem is not None:
                raise GitError(f"{shown(folder + path)}: not written to git, {problem}")


def _check_base_names(repository: Path, base_tree: str) -> None:
    """Raise GitError naming every entry of `base_tree` (at any depth) that `_check_names`
    would refuse from a user: a commit of the branch may hold them (git's own commands do
    not write them, plumbing does), and a publish on top would carry them on."""
    listing = _git(repository, "ls-tree", "-r", "-t", "-z", "--name-only", base_tree).stdout
    refused = []
    for raw in filter(None, listing.split(b"\0")):
        path = raw.decode("utf-8", "surrogateescape")
        problem = tree_entry_problem(path.rpartition("/")[2])
        if problem is not None:
            refused.append(f"{shown(path)} ({problem})")
    if refused:
        raise GitError(
            "the base commit holds entries git could not check out, which a publish would "
            f"carry on; nothing was written: {', '.join(refused)}. Remove them from the "
            "branch first"
        )


def _check_text_file(existing: TreeEntry, folder: str) -> None:
    if existing.mode not in TEXT_FILE_MODES:
        what = "submodule" if existing.kind == "commit" else "symbolic link"
        raise GitError(
            f"{shown(folder + existing.name)} is a {what} in the repository; the app never "
            "replaces it with its own text"
        )


def _name_bytes(name: str) -> bytes:
    return name.encode("utf-8", "surrogateescape")


def commit_tree(
    repository: Path,
    tree: str,
    parent: str,
    message: str,
    author: tuple[str, str] | None = None,
) -> str:
    """A new commit of `tree` on top of `parent`, by `author` (name, email) when given, else by
    the repository's configured user (or agentv-web when none is configured)."""
    environment: dict[str, str] = {}
    if _git(repository, "var", "GIT_COMMITTER_IDENT", check=False).returncode != 0:
        name, email = FALLBACK_IDENTITY
        environment |= {"GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email}
        environment |= {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email}
    if author is not None:
        environment |= {"GIT_AUTHOR_NAME": author[0], "GIT_AUTHOR_EMAIL": author[1]}
    result = _git(
        repository,
        "commit-tree",
        "--no-gpg-sign",  # `commit.gpgSign` would run the repository's `gpg.program`
        tree,
        "-p",
        parent,
        "-F",
        "-",
        input_bytes=message.encode(),
        environment=environment,
    )
    return result.stdout.decode("ascii").strip()


def move_branch(repository: Path, branch: str, new: str, expected: str | None) -> None:
    """Point `branch` at `new` if it still points at `expected` (None: if it does not exist).

    `git update-ref` checks the old value under the ref's lock, so a branch that moved
    meanwhile is refused (BranchMoved), never overwritten. The name is checked first
    (InvalidBranchName), so a bad name is never reported as a branch that moved.
    """
    check_branch_name(repository, branch)
    old = expected if expected is not None else "0" * len(new)
    result = _git(repository, "update-ref", f"refs/heads/{branch}", new, old, check=False)
    if result.returncode == 0:
        return
    message = result.stderr.decode("utf-8", "replace").strip()
    if branch_commit(repository, branch) != expected:
        raise BranchMoved(f"branch {branch!r} moved while publishing ({message})")
    raise GitError(f"git update-ref: {message or 'failed'}")


# Talking to a remote (docs/sync.md, "Remotes"): only the transports allowed, no credential
# helper of the server's, no terminal prompt, and nothing git traces (a trace would print the
# credential's header).
_NETWORK_TIMEOUT = 300  # seconds a clone, fetch or push may take
_UNTRUSTED_VARIABLES = ("GIT_TRACE", "GIT_CURL_VERBOSE", "GIT_CONFIG", "GIT_SSH", "GIT_ASKPASS")


@dataclass(frozen=True)
class Transport:
    """How git reaches a remote: the transports it may use, the variables that hand it a
    credential, and the secrets no message may show."""

    protocols: tuple[str, ...]
    # Never in the repr, which an error report may show: they hand git the credential.
    environment: dict[str, str] = field(repr=False)
    secrets: tuple[str, ...] = field(default=(), repr=False)

    def scrubbed(self, text: str) -> str:
        """`text` with every secret replaced by `[credential]`."""
        for secret in self.secrets:
            if secret:
                text = text.replace(secret, "[credential]")
        return text


def _over_network(
    repository: Path, transport: Transport, *arguments: str
) -> subprocess.CompletedProcess[bytes]:
    allowed = ["-c", "protocol.allow=never", "-c", "credential.helper="]
    for protocol in transport.protocols:
        allowed += ["-c", f"protocol.{protocol}.allow=always"]
    inherited = {
        key: value
        for key, value in _environment(None).items()
        if not key.startswith(_UNTRUSTED_VARIABLES)
    }
    try:
        return subprocess.run(
            [GIT, "-C", str(repository), *_SAFE_CONFIGURATION, *allowed, *arguments],
            capture_output=True,
            env={**inherited, "GIT_TERMINAL_PROMPT": "0", **transport.environment},
            check=False,
            timeout=_NETWORK_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        raise GitError(f"git {arguments[0]}: no answer within {_NETWORK_TIMEOUT} seconds") from None
    except OSError as error:
        raise GitError(f"git cannot be run: {error.strerror}") from None


def _network_error(transport: Transport, arguments: str, result: Any) -> GitError:
    message = result.stderr.decode("utf-8", "replace").strip() or "failed"
    return GitError(f"git {arguments}: {transport.scrubbed(message)}")


def init_bare(repository: Path) -> None:
    """A new, empty bare repository at `repository`, without the sample hooks of git's
    template (hooks never run anyway)."""
    repository.mkdir(parents=True)
    _git(repository, "init", "--quiet", "--bare", "--template=")


def fetch_branches(repository: Path, url: str, transport: Transport) -> None:
    """Make the branches of `repository` those of `url` (a clone's copy of the remote's,
    moved wherever they moved, gone where the remote's are gone; tags are not fetched)."""
    result = _over_network(
        repository,
        transport,
        "fetch",
        "--quiet",
        "--prune",
        "--no-tags",
        "--no-write-fetch-head",
        "--",
        url,
        "+refs/heads/*:refs/heads/*",
    )
    if result.returncode != 0:
        raise _network_error(transport, "fetch", result)


def push_branch(
    repository: Path, url: str, transport: Transport, commit: str, branch: str, expected: str | None
) -> None:
    """Set `branch` of `url` to `commit` if it is still at `expected` (None: if it does not
    exist); `commit` must contain `expected`, so this is never a forced push. Raises
    BranchMoved when the remote's branch is elsewhere, GitError for any other failure."""
    check_branch_name(repository, branch)
    if expected is not None and not is_ancestor(repository, expected, commit):
        raise BranchMoved(f"branch {branch!r}: {commit[:12]} does not contain {expected[:12]}")
    ref = f"refs/heads/{branch}"
    result = _over_network(
        repository,
        transport,
        "push",
        "--quiet",
        "--porcelain",
        "--no-verify",
        "--atomic",
        f"--force-with-lease={ref}:{expected or ''}",
        "--",
        url,
        f"{commit}:{ref}",
    )
    if result.returncode == 0:
        return
    report = result.stdout.decode("utf-8", "replace")
    if "[rejected]" in report or "stale info" in report or "fetch first" in report:
        raise BranchMoved(
            f"branch {branch!r} of the remote is no longer at "
            f"{expected[:12] if expected else '(no branch)'}; the push was refused"
        )
    raise _network_error(transport, "push", result)

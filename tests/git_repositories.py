"""Real git repositories in temporary folders, for the tests of sync and publish."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from evals_app.models import Workspace
from evals_app.services.imports.folders import import_workspace


class Repository:
    """A git work tree made for one test, with `git` run in it and files written into it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # Set by `commit_raw`, whose trees may be what `git fsck` refuses on purpose.
        self.broken_on_purpose = False

    def git(self, *arguments: str) -> str:
        """Run git in the work tree; its standard output."""
        return subprocess.run(
            ["git", "-C", str(self.path), *arguments], check=True, capture_output=True, text=True
        ).stdout

    def write(self, files: dict[str, str]) -> None:
        for relative, text in files.items():
            target = self.path / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")

    def commit(self, files: dict[str, str] | None = None, message: str = "change") -> str:
        """Write `files`, commit everything, and return the new commit's id."""
        self.write(files or {})
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.head()

    def remove(self, relative: str) -> str:
        self.git("rm", "-q", relative)
        self.git("commit", "-q", "-m", f"remove {relative}")
        return self.head()

    def head(self, ref: str = "HEAD") -> str:
        return self.git("rev-parse", ref).strip()

    def show(self, ref: str, relative: str) -> str:
        return self.git("show", f"{ref}:{relative}")

    def mode(self, ref: str, relative: str) -> str:
        """The mode of the file at `relative` in `ref` (100644, 100755, 120000, …)."""
        return self.git("ls-tree", ref, "--", relative).split(" ", 1)[0]

    def fsck_problems(self) -> str:
        """What `git fsck --strict` finds wrong in every object of the repository ("": none)."""
        result = subprocess.run(
            ["git", "-C", str(self.path), "fsck", "--strict", "--no-dangling", "--no-progress"],
            capture_output=True,
            text=True,
            check=False,
        )
        problems = [line for line in result.stderr.splitlines() if line.startswith("error")]
        return "\n".join(problems) or ("" if result.returncode == 0 else result.stderr)

    def commit_raw(self, files: dict[bytes, bytes], message: str = "crafted") -> str:
        """Commit `files` (path bytes, split at /, to contents) over HEAD's tree, built with
        `git mktree` so that paths `git add` refuses (`evals/../x.yaml`) can be made."""
        self.broken_on_purpose = True
        listing = self._raw("ls-tree", "-r", "-z", "HEAD").split(b"\0")
        tree: dict[bytes, Any] = {}
        for record in filter(None, listing):
            meta, _, path = record.partition(b"\t")
            mode, _, object_id = meta.decode().split()
            _place(tree, path.split(b"/"), (mode.encode(), object_id.encode()))
        for path, content in files.items():
            blob = self._raw("hash-object", "-w", "--stdin", input_bytes=content).strip()
            _place(tree, path.split(b"/"), (b"100644", blob))
        top = self._mktree(tree)
        commit = self._raw("commit-tree", top.decode(), "-p", "HEAD", "-m", message)
        self.git("update-ref", "HEAD", commit.decode().strip())
        return self.head()

    def _mktree(self, tree: dict[bytes, Any]) -> bytes:
        listing = b""
        for name, value in tree.items():
            if isinstance(value, dict):
                listing += b"040000 tree " + self._mktree(value) + b"\t" + name + b"\0"
            else:
                mode, object_id = value
                kind = b"commit" if mode == b"160000" else b"blob"
                listing += mode + b" " + kind + b" " + object_id + b"\t" + name + b"\0"
        return self._raw("mktree", "-z", input_bytes=listing).strip()

    def _raw(self, *arguments: str, input_bytes: bytes | None = None) -> bytes:
        return subprocess.run(
            ["git", "-C", str(self.path), *arguments],
            input=input_bytes,
            check=True,
            capture_output=True,
        ).stdout


def _place(tree: dict[bytes, Any], parts: list[bytes], entry: tuple[bytes, bytes]) -> None:
    for part in parts[:-1]:
        tree = tree.setdefault(part, {})
    tree[parts[-1]] = entry


# Every repository made by `repository`, for the fixture that runs `git fsck` after each test
# (tests/conftest.py).
MADE: list[Repository] = []


def repository(folder: Path) -> Repository:
    """An empty repository on branch `main` with a committer configured."""
    folder.mkdir(parents=True, exist_ok=True)
    made = Repository(folder)
    MADE.append(made)
    made.git("init", "-q", "-b", "main")
    made.git("config", "user.name", "Repo Owner")
    made.git("config", "user.email", "owner@example.com")
    made.git("config", "commit.gpgsign", "false")
    return made


def case_yaml(case_id: str, question: str, answer: str = "An answer.") -> str:
    """One case of a 2026 `tests:` list, as the repository's YAML spells it."""
    return f"  - id: {case_id}\n    input: {question}\n    expected_output: {answer}\n"


def suite_yaml(*cases: tuple[str, str]) -> str:
    """An eval file with the cases (id, question)."""
    return "description: Sync tests\ntests:\n" + "".join(
        case_yaml(case_id, question) for case_id, question in cases
    )


def linked_workspace(repo: Repository, name: str = "team") -> Workspace:
    """The workspace imported from the repository's work tree (linked to it)."""
    return import_workspace(repo.path, name, link=True).workspace


def bare_remote(repo: Repository, folder: Path) -> Repository:
    """A bare clone of `repo` at `folder`: a remote the app can link by URL and push to."""
    subprocess.run(
        ["git", "clone", "-q", "--bare", str(repo.path), str(folder)],
        check=True,
        capture_output=True,
    )
    return Repository(folder)


def free_port() -> int:
    """A TCP port of 127.0.0.1 nothing listens on (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def git_daemon(base: Path) -> Iterator[str]:
    """`git daemon` serving the repositories under `base` on 127.0.0.1, pushes allowed; yields
    its URL prefix (`git://127.0.0.1:PORT/`) and stops it after."""
    port = free_port()
    process = subprocess.Popen(
        [
            "git",
            "daemon",
            "--export-all",
            "--enable=receive-pack",
            f"--base-path={base}",
            "--listen=127.0.0.1",
            f"--port={port}",
            "--reuseaddr",
            str(base),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_listener(port, process)
        yield f"git://127.0.0.1:{port}/"
    finally:
        process.terminate()
        process.wait()


def _wait_for_listener(port: int, process: subprocess.Popen[bytes]) -> None:
    # The daemon starts listening a moment after it starts; it is ready once it accepts.
    for _ in range(200):
        if process.poll() is not None:
            raise RuntimeError("git daemon stopped at start")
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as attempt:
            if attempt.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError("git daemon did not start listening")

"""Running `agentv eval` as a child process: its progress lines, a time limit, an output size
limit, and a stop at once when the run is cancelled (docs/runs.md, "Safety")."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from django.conf import settings

from .commands import environment_names

# How often the limits, the progress and a cancel are looked at while AgentV runs; its end is
# noticed at once (the wait returns as soon as the process exits).
POLL_SECONDS = 0.05
# `3/20   ✅ case-id | target | 100% PASS | 5ms`: AgentV's lines start with how many tests
# of how many are done.
DONE_LINE = re.compile(r"^(?P<done>\d+)/(?P<total>\d+)\s")
# What AgentV gets of the worker's environment besides the variables the operator's targets
# file names: where programs are, the locale, and how the machine reaches providers (its
# proxy and certificate authorities) (docs/security.md, "Runs").
PASSED_ON = (
    "PATH",
    "LANG",
    "LANGUAGE",
    "TZ",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "NODE_EXTRA_CA_CERTS",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
)


class AgentvFailed(Exception):
    """AgentV could not finish: timed out, printed too much, or was killed; the message says
    which, for the run's error."""


@dataclass
class AgentvOutput:
    """What AgentV printed, and how it ended."""

    returncode: int
    stdout: str
    stderr: str
    seconds: float


def run_agentv(
    command: list[str],
    folder: Path,
    *,
    time_limit: float,
    output_limit: int,
    on_progress: Callable[[int, int], None],
) -> AgentvOutput:
    """Run `command` in `folder` (the workspace folder of a run's folder) and wait for it;
    `on_progress(done, total)` is called for each finished test and every poll (it may raise
    to cancel: the process group is killed and the exception goes on). What AgentV printed
    and wrote names the run's files by workspace paths."""
    started = time.monotonic()
    process = subprocess.Popen(
        command,
        cwd=folder,
        env=run_environment(folder.parent),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: graders and targets die with it
    )
    assert process.stdout is not None and process.stderr is not None
    readers = [_Reader(process.stdout), _Reader(process.stderr)]
    try:
        while process.poll() is None:
            printed = sum(reader.size for reader in readers)
            if printed > output_limit:
                raise AgentvFailed(
                    f"AgentV printed more than the output limit ({output_limit} bytes) and "
                    "was stopped."
                )
            if time.monotonic() - started > time_limit:
                raise AgentvFailed(
                    f"AgentV did not finish within the time limit ({time_limit:g} s) and was "
                    "stopped."
                )
            on_progress(*readers[0].progress)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=POLL_SECONDS)
    finally:
        if process.poll() is None:
            _kill(process)
        for reader in readers:
            reader.thread.join(timeout=5)
    seconds = time.monotonic() - started
    on_progress(*readers[0].progress)
    if process.returncode < 0:
        name = signal.Signals(-process.returncode).name
        raise AgentvFailed(f"AgentV was killed ({name}) before it finished.")
    relative = _Relative(folder)
    relative.rewrite_files(folder.parent / "results")
    return AgentvOutput(
        process.returncode,
        relative(readers[0].text()),
        relative(readers[1].text()),
        seconds,
    )


def run_environment(run_folder: Path) -> Mapping[str, str]:
    """AgentV's whole environment: PATH, the locale, a HOME and TMPDIR inside the run's
    folder, and the variables the operator's targets file names (its secrets)."""
    environment = {
        name: value
        for name, value in os.environ.items()
        if name in PASSED_ON or name.startswith("LC_")
    }
    for name in targets_file_variables():
        if name in os.environ:
            environment[name] = os.environ[name]
    environment["HOME"] = str(run_folder / "home")
    environment["TMPDIR"] = str(run_folder / "tmp")
    environment["NO_COLOR"] = "1"
    return environment


def targets_file_variables() -> set[str]:
    """The environment variables the operator's targets file names (`${{ NAME }}`)."""
    path = settings.AGENTV_TARGETS_FILE
    if not path:
        return set()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return set()  # the run refuses the file with its reason (targets.py)
    return environment_names(text) - {"env"}


class _Relative:
    """Turns the run folder's absolute paths into workspace paths in what AgentV printed
    and wrote: no error shows where the server keeps its temporary folders."""

    def __init__(self, folder: Path) -> None:
        workspace = str(folder)
        run_folder = str(folder.parent)
        self.replacements = [
            (workspace + "/", ""),
            (workspace, "."),
            (run_folder + "/", ""),
            (run_folder, "."),
        ]
        real = os.path.realpath(workspace)
        if real != workspace:
            self.replacements[:0] = [(real + "/", ""), (real, ".")]

    def __call__(self, text: str) -> str:
        for absolute, shown in self.replacements:
            text = text.replace(absolute, shown)
        return text

    def rewrite_files(self, folder: Path) -> None:
        for path in folder.rglob("*") if folder.is_dir() else []:
            if path.is_file() and not path.is_symlink():
                with contextlib.suppress(UnicodeDecodeError, OSError):
                    text = path.read_text(encoding="utf-8")
                    rewritten = self(text)
                    if rewritten != text:
                        path.write_text(rewritten, encoding="utf-8")


def _kill(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


class _Reader:
    """Reads one of the child's pipes in a thread, keeping the text and the last progress."""

    def __init__(self, pipe: IO[bytes]) -> None:
        self.chunks: list[bytes] = []
        self.size = 0
        self.progress = (0, 0)
        self.thread = threading.Thread(target=self._read, args=(pipe,), daemon=True)
        self.thread.start()

    def _read(self, pipe: IO[bytes]) -> None:
        for line in pipe:
            self.size += len(line)
            if self.size < 2**24:  # what is kept; the limit itself is checked on `size`
                self.chunks.append(line)
            match = DONE_LINE.match(line.decode("utf-8", errors="replace"))
            if match:
                self.progress = (int(match["done"]), int(match["total"]))
        pipe.close()

    def text(self) -> str:
        return b"".join(self.chunks).decode("utf-8", errors="replace")

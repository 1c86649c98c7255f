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

# How often the limits, the progress and a cancel are looked at while AgentV runs; its end is
# noticed at once (the wait returns as soon as the process exits).
POLL_SECONDS = 0.05
# `3/20   ✅ case-id | target | 100% PASS | 5ms`: AgentV's lines start with how many tests
# of how many are done.
DONE_LINE = re.compile(r"^(?P<done>\d+)/(?P<total>\d+)\s")
# The server's own secrets never reach the programs an eval file names.
WITHHELD = ("DJANGO_", "DATABASE_URL", "AGENTV_CREDENTIALS_KEY")


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
    """Run `command` in `folder` and wait for it; `on_progress(done, total)` is called for
    each finished test and every poll (it may raise to cancel: the process group is killed
    and the exception goes on)."""
    started = time.monotonic()
    process = subprocess.Popen(
        command,
        cwd=folder,
        env=_environment(),
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
    return AgentvOutput(process.returncode, readers[0].text(), readers[1].text(), seconds)


def _environment() -> Mapping[str, str]:
    environment = {
        name: value for name, value in os.environ.items() if not name.startswith(WITHHELD)
    }
    environment["NO_COLOR"] = "1"
    return environment


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

"""Waking idle workers at once when a job is queued, instead of at their next look at the
queue (docs/jobs.md, "Waking the worker"). Each `manage.py db_worker` listens on a datagram
socket in the job files' folder; whoever queues a job sends each one a byte. A worker on
another machine still finds the job at its next look."""

from __future__ import annotations

import contextlib
import os
import select
import socket
import time
from pathlib import Path
from types import TracebackType

from django.conf import settings

WAKE_FOLDER = "wake"


def wake_folder() -> Path:
    """Where the workers of this machine listen (a folder of AGENTV_JOB_FILES_DIR)."""
    return Path(settings.AGENTV_JOB_FILES_DIR) / WAKE_FOLDER


def wake_workers() -> None:
    """Tell every listening worker that a job is queued; never fails (a worker that is gone
    leaves its socket, removed here)."""
    folder = wake_folder()
    if not folder.is_dir():
        return
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
        sender.setblocking(False)
        for path in folder.glob("*.sock"):
            try:
                sender.sendto(b"!", str(path))
            except (ConnectionRefusedError, FileNotFoundError):
                path.unlink(missing_ok=True)  # its worker is gone
            except OSError:
                continue  # its buffer is full: it is awake already


class WakeSocket:
    """A worker's socket: `wait(seconds)` returns when a job is queued or after `seconds`.
    Where no socket can be made (a folder path longer than a socket's address may be), it
    only waits, as db_worker does."""

    def __init__(self) -> None:
        folder = wake_folder()
        self.path = folder / f"worker-{os.getpid()}.sock"
        self.socket: socket.socket | None = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self.path.unlink(missing_ok=True)
            self.socket.bind(str(self.path))
        except OSError:
            self.socket.close()
            self.socket = None
            return
        self.socket.setblocking(False)

    def wait(self, seconds: float) -> None:
        if self.socket is None:
            time.sleep(seconds)
            return
        readable, _, _ = select.select([self.socket], [], [], seconds)
        if readable:
            with contextlib.suppress(BlockingIOError):
                while self.socket.recv(64):  # one wake-up for all jobs queued meanwhile
                    pass

    def close(self) -> None:
        if self.socket is not None:
            self.socket.close()
            self.path.unlink(missing_ok=True)

    def __enter__(self) -> WakeSocket:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

"""gunicorn on loopback for the preview measurements, and a minimal logged-in HTTP client.

Only 127.0.0.1 is ever contacted. Sync workers close each connection after a response, so
every request opens its own, as it would behind a proxy.
"""

from __future__ import annotations

import http.client
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from .environment import REPOSITORY, USERNAME, Environment

HOST = "127.0.0.1"


@contextmanager
def gunicorn(environment: Environment, workers: int) -> Iterator[int]:
    """Run gunicorn with `workers` sync workers on a free loopback port; yields the port.

    Its access log (`access_log(port)`) gives each request's path, status and server time:
    the worker's own measure, from the parsed request to the last byte of the response.
    """
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "agentv_web.wsgi:application",
            f"--bind={HOST}:{port}",
            f"--workers={workers}",
            "--log-level=warning",
            f"--access-logfile={access_log(environment, port)}",
            "--access-logformat=%(U)s %(s)s %(D)s",
        ],
        cwd=REPOSITORY,
        env=environment.subprocess_env(),
    )
    try:
        _wait_for(port, process)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def db_workers(
    environment: Environment,
    count: int,
    variables: dict[str, str] | None = None,
    worker: tuple[str, ...] = ("db_worker", "--interval", "0.1"),
) -> Iterator[list[subprocess.Popen[bytes]]]:
    """Run `count` job workers (`worker`: `manage.py db_worker` polling the queue every 0.1 s
    by default, or as deployed), with `variables` added to the environment; stopped at the
    end."""
    command = [sys.executable, "manage.py", *worker, "--no-reload"]
    command += ["--no-startup-delay", "--verbosity", "0"]
    env = {**environment.subprocess_env(), **(variables or {})}
    workers = [subprocess.Popen(command, cwd=REPOSITORY, env=env) for _ in range(count)]
    try:
        yield workers
    finally:
        for process in workers:
            process.terminate()
        for process in workers:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                # A worker waiting in the queue's poll has been seen to outlive SIGTERM.
                process.kill()
                process.wait()


@dataclass
class Session:
    """A logged-in user's cookies against the server on `port`."""

    port: int
    cookies: dict[str, str] = field(default_factory=dict)

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, bytes]:
        """One request on a new connection; remembers cookies set; returns (status, body)."""
        connection = http.client.HTTPConnection(HOST, self.port, timeout=30)
        try:
            cookie = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
            connection.request(method, path, body, {"Cookie": cookie, **(headers or {})})
            response = connection.getresponse()
            content = response.read()
            for header in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
            return response.status, content
        finally:
            connection.close()

    def copy(self, port: int | None = None) -> Session:
        """The same login with cookies of its own (one per thread), or for another server."""
        return Session(port or self.port, dict(self.cookies))

    def post_form(self, path: str, fields: dict[str, str]) -> tuple[int, bytes]:
        """POST `fields` form-encoded, as a browser submits a form."""
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        return self.request("POST", path, urlencode(fields).encode(), headers)

    def post_json(self, path: str, body: bytes) -> tuple[int, bytes]:
        """POST a JSON body as htmx does: the CSRF token in a header, marked as htmx's."""
        headers = {
            "Content-Type": "application/json",
            "X-CSRFToken": self.cookies.get("csrftoken", ""),
            "HX-Request": "true",
        }
        return self.request("POST", path, body, headers)


def log_in(port: int, password: str, username: str = USERNAME) -> Session:
    """Log in through the login form, as a browser does (as the benchmark's account unless
    `username` says otherwise)."""
    session = Session(port)
    status, page = session.request("GET", "/login/")
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    if status != 200 or token is None:
        raise RuntimeError(f"the login page answered {status}")
    fields = {"username": username, "password": password, "csrfmiddlewaretoken": token[1].decode()}
    status, _ = session.post_form("/login/", fields)
    if status != 302 or "sessionid" not in session.cookies:
        raise RuntimeError(f"logging in answered {status}")
    return session


def access_log(environment: Environment, port: int) -> Path:
    """Where the gunicorn on `port` logs requests."""
    return environment.folder / f"access-{port}.log"


def server_times(log: Path, path_suffix: str, skip: int = 0) -> list[float]:
    """Milliseconds the server took for each logged request to a path ending `path_suffix`,
    after the first `skip` lines of the log."""
    lines = log.read_text().splitlines()[skip:] if log.exists() else []
    return [
        int(micros) / 1000
        for path, _, micros in (line.split(" ") for line in lines)
        if path.endswith(path_suffix)
    ]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_for(port: int, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
    """Until a worker answers (the master listens before its workers have loaded Django)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with status {process.returncode}")
        try:
            if Session(port).request("GET", "/login/")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError("gunicorn did not answer in time")

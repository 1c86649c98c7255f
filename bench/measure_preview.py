"""Preview latency under 20 simulated typists, and the throughput of one worker.

Each typist edits the 50-turn case: every 250 ms it adds a character to a turn and posts the
whole form to the preview, as htmx does (as JSON), and waits for the answer. The typists start
spread over the first 250 ms and stop by themselves after the given time. The server time of
each preview comes from gunicorn's access log (the worker's own measure); the latency the
client sees on loopback, waiting for a free worker included, is reported beside it.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tests.html_forms import form_fields

from .figures import Figure, at_least, at_most, median, percentile, progress, report
from .server import Session, server_times

TYPISTS = 20
INTERVAL = 0.25  # seconds between one typist's previews
P50_MILLISECONDS = 10
P99_MILLISECONDS = 30
# 20 typists x 4 previews a second, shared by 2 workers: one worker must keep up with 40.
WORKER_THROUGHPUT = TYPISTS / INTERVAL / 2
THROUGHPUT_CLIENTS = 4
WARM_UP = 10  # requests of each warm-up client before measuring
WARM_UP_CLIENTS = 4


@dataclass
class PreviewRequest:
    """The editor's preview request for one case: its URL and the form it posts."""

    path: str
    fields: dict[str, str]
    text_field: str  # the text area the typists type into
    _encoded: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # Encoded once: the client should not compete with the server for the CPU. The body
        # is one JSON object, as htmx sends it with the editor's `form-json` extension.
        others = {name: value for name, value in self.fields.items() if name != self.text_field}
        self._encoded = json.dumps(others)[:-1]

    @classmethod
    def of_editor(cls, session: Session, editor_path: str) -> PreviewRequest:
        """Read the editor page as the browser gets it and build its preview request."""
        status, page = session.request("GET", editor_path)
        if status != 200:
            raise RuntimeError(f"the editor answered {status}")
        fields = form_fields(page.decode(), "case-form")
        fields.update({"preview_mode": "lm", "candidate_answer": ""})
        text_field = next(
            name for name in fields if name.startswith("input-") and name.endswith("-value")
        )
        return cls(f"{editor_path}preview/", fields, text_field)

    def send(self, session: Session, typed: str) -> int:
        """Post the form with `typed` added to the text area; the response status."""
        text = json.dumps(self.fields[self.text_field] + typed)
        body = f"{self._encoded}, {json.dumps(self.text_field)}: {text}}}".encode()
        status, _ = session.post_json(self.path, body)
        return status


@dataclass
class Results:
    """What the typists saw (thread-safe appends)."""

    latencies: list[float] = field(default_factory=list)
    failures: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, seconds: float, status: int) -> None:
        """Record one answered preview."""
        with self.lock:
            self.latencies.append(seconds)
            if status != 200:
                self.failures += 1


def measure_typists(
    session: Session, preview: PreviewRequest, seconds: float, log: Path
) -> list[Figure]:
    """Run the typists for `seconds` against the server `session` talks to (access log `log`)."""
    progress(f"{TYPISTS} typists posting previews for {seconds:g} s")
    _warm_up(session, preview)
    logged = len(log.read_text().splitlines())
    results = Results()
    start = time.perf_counter() + 0.1
    threads = [
        threading.Thread(
            target=_typist,
            args=(
                session.copy(),
                preview,
                results,
                start + index * INTERVAL / TYPISTS,
                start + seconds,
            ),
        )
        for index in range(TYPISTS)
    ]
    _run(threads)
    time.sleep(0.2)  # gunicorn writes the access log line after the response
    server = server_times(log, "/preview/", skip=logged)
    client = [latency * 1000 for latency in results.latencies]
    return [
        report(Figure("preview_server_p50", median(server), "ms", at_most(P50_MILLISECONDS))),
        report(
            Figure("preview_server_p99", percentile(server, 0.99), "ms", at_most(P99_MILLISECONDS))
        ),
        report(Figure("preview_client_p50", median(client), "ms")),
        report(Figure("preview_client_p99", percentile(client, 0.99), "ms")),
        report(Figure("preview_requests", len(client), "requests")),
        report(Figure("preview_failures", results.failures, "requests", at_most(0))),
    ]


def measure_throughput(session: Session, preview: PreviewRequest, seconds: float) -> Figure:
    """Previews per second that the server (one worker) answers to back-to-back requests."""
    progress(f"one worker's throughput, {THROUGHPUT_CLIENTS} clients for {seconds:g} s")
    _warm_up(session, preview)
    results = Results()
    deadline = time.perf_counter() + seconds
    threads = [
        threading.Thread(target=_back_to_back, args=(session.copy(), preview, results, deadline))
        for _ in range(THROUGHPUT_CLIENTS)
    ]
    began = time.perf_counter()
    _run(threads)
    elapsed = time.perf_counter() - began
    answered = len(results.latencies) - results.failures
    return report(
        Figure(
            "preview_worker_throughput", answered / elapsed, "req/s", at_least(WORKER_THROUGHPUT)
        )
    )


def _warm_up(session: Session, preview: PreviewRequest) -> None:
    # A worker's first requests load templates and fill caches: not what is measured. Sent
    # by several clients at once, so that every worker gets some.
    def send(client: Session) -> None:
        for _ in range(WARM_UP):
            preview.send(client, "")

    _run([threading.Thread(target=send, args=(session.copy(),)) for _ in range(WARM_UP_CLIENTS)])


def _typist(
    session: Session, preview: PreviewRequest, results: Results, first: float, stop: float
) -> None:
    due, typed = first, ""
    while due < stop:
        _sleep_until(due)
        typed += "x"
        results.add(*_timed_send(session, preview, typed))
        due += INTERVAL


def _back_to_back(
    session: Session, preview: PreviewRequest, results: Results, deadline: float
) -> None:
    typed = ""
    while time.perf_counter() < deadline:
        typed = typed[-40:] + "y"
        results.add(*_timed_send(session, preview, typed))


def _timed_send(session: Session, preview: PreviewRequest, typed: str) -> tuple[float, int]:
    start = time.perf_counter()
    status = preview.send(session, typed)
    return time.perf_counter() - start, status


def _run(threads: list[threading.Thread]) -> None:
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _sleep_until(moment: float, clock: Callable[[], float] = time.perf_counter) -> None:
    remaining = moment - clock()
    if remaining > 0:
        time.sleep(remaining)

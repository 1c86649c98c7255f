"""Another user's pages while long work runs (docs/jobs.md): gunicorn with 2 workers and two
`db_worker` processes; the owner of a large linked workspace queues two exports and a check
for changes through the API, as a script would, and follows them until they end; meanwhile
another user opens the suite page and the editor of a small workspace of their own, one
request after another. Their latencies before the jobs (idle) and while the jobs run."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from tests.workload.generate import generate_workspace

from .environment import USERNAME, Environment
from .figures import Figure, at_least, at_most, median, percentile, progress, report
from .measure_files import import_workspace
from .server import Session, access_log, db_workers, gunicorn, log_in, server_times

OTHER_USER = "bench-other"
OTHER_WORKSPACE = "bench-other-small"
OTHER_CASES = 300
PAGE_P99_MS = 300
IDLE_REQUESTS = 40
JOBS_SECONDS = 1800  # given up after this; the figure then says the jobs did not finish
POLL_SECONDS = 1.0  # as the API's example follows a job


def measure_busy(environment: Environment, folder: Path, name: str, seed: int) -> list[Figure]:
    """The other user's page latencies while two exports and a check of `name` run."""
    pages = _other_workspace(folder, seed, environment.password)
    token = _token()
    slug = _slug(name)
    with gunicorn(environment, workers=2) as port, db_workers(environment, 2):
        session = log_in(port, environment.password, OTHER_USER)
        for page in pages * 3:
            _get(session, page)
        idle = [_timed(session, page) for page in pages * (IDLE_REQUESTS // len(pages))]
        log = access_log(environment, port)
        skip = len(log.read_text().splitlines())
        busy: list[float] = []
        failures: list[int] = []
        stop = threading.Event()
        browsing = threading.Thread(target=_browse, args=(session, pages, busy, failures, stop))
        browsing.start()
        try:
            api = Session(port)
            start = time.perf_counter()
            jobs = [
                _queue(api, token, f"/api/v1/workspaces/{slug}/jobs/{kind}")
                for kind in ("export", "export", "check")
            ]
            progress(f"queued two exports and a check of {name}; browsing meanwhile")
            states = _follow(api, token, jobs)
            jobs_seconds = time.perf_counter() - start
        finally:
            stop.set()
            browsing.join()
        served = [t for page in pages for t in server_times(log, page, skip)]
    done = sum(state == "done" for state in states.values())
    progress(f"jobs ended: {states}")
    return [
        report(Figure("busy_jobs_done", done, "jobs", at_least(3))),
        report(Figure("busy_jobs_seconds", jobs_seconds, "s")),
        report(Figure("busy_other_user_requests", len(busy), "requests")),
        report(Figure("busy_other_user_failures", len(failures), "requests", at_most(0))),
        report(Figure("idle_other_user_page_p99", percentile(idle, 0.99), "ms")),
        report(Figure("busy_other_user_page_p50", median(busy), "ms")),
        report(
            Figure("busy_other_user_page_p99", percentile(busy, 0.99), "ms", at_most(PAGE_P99_MS))
        ),
        report(Figure("busy_other_user_server_p99", percentile(served, 0.99), "ms")),
    ]


def _other_workspace(folder: Path, seed: int, password: str) -> list[str]:
    """A small workspace of another user's (who has the benchmark account's password), and
    the paths of its suite page and of the editor of its first case."""
    from django.contrib.auth.models import User
    from django.urls import reverse

    from evals_app.models import Membership, Workspace
    from evals_app.services.workspaces.memberships import add_member

    small = generate_workspace(folder / "other", cases=OTHER_CASES, seed=seed + 1)
    import_workspace(small, OTHER_WORKSPACE)
    workspace = Workspace.objects.get(name=OTHER_WORKSPACE)
    User.objects.create_user(OTHER_USER, password=password)
    add_member(workspace, OTHER_USER, Membership.Role.OWNER)
    suite = workspace.suites.get(path=small.first_suite)
    case = suite.cases.order_by("position").first()
    assert case is not None
    return [
        reverse("suite_detail", args=[workspace.slug, suite.pk]),
        reverse("case_editor", args=[workspace.slug, suite.pk, case.pk]),
    ]


def _token() -> str:
    from django.contrib.auth.models import User

    from evals_app.services.api_tokens import create_token

    _, token = create_token(User.objects.get(username=USERNAME), "bench")
    return token


def _slug(name: str) -> str:
    from evals_app.models import Workspace

    return Workspace.objects.get(name=name).slug


def _browse(
    session: Session,
    pages: list[str],
    latencies: list[float],
    failures: list[int],
    stop: threading.Event,
) -> None:
    """Open the pages in turn, one request after another, until `stop`."""
    while not stop.is_set():
        for page in pages:
            start = time.perf_counter()
            status, _ = session.request("GET", page)
            latencies.append((time.perf_counter() - start) * 1000)
            if status != 200:
                failures.append(status)


def _queue(api: Session, token: str, path: str) -> int:
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    status, body = api.request("POST", path, b"{}", headers)
    if status != 202:
        raise RuntimeError(f"POST {path} answered {status}: {body[:300]!r}")
    job_id: int = json.loads(body)["id"]
    return job_id


def _follow(api: Session, token: str, jobs: list[int]) -> dict[int, str]:
    """Each job's state once all have ended (or the wait is over)."""
    headers = {"Authorization": f"Bearer {token}"}
    states: dict[int, str] = {}
    deadline = time.monotonic() + JOBS_SECONDS
    while time.monotonic() < deadline:
        for job in jobs:
            status, body = api.request("GET", f"/api/v1/jobs/{job}", headers=headers)
            answer = json.loads(body) if status == 200 else {"state": f"answered {status}"}
            states[job] = answer["state"]
            if answer["state"] == "failed":
                progress(f"job {job} failed: {answer['error']}")
        if all(state not in ("queued", "running") for state in states.values()):
            break
        time.sleep(POLL_SECONDS)
    return states


def _timed(session: Session, page: str) -> float:
    start = time.perf_counter()
    _get(session, page)
    return (time.perf_counter() - start) * 1000


def _get(session: Session, page: str) -> None:
    status, _ = session.request("GET", page)
    if status != 200:
        raise RuntimeError(f"GET {page} answered {status}")

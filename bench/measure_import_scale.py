"""An import at scale: the peak memory of `import_evals` of a large workspace, in a fresh
process, and how long saves elsewhere take while a real worker imports a large .zip.

The saves go through the editor's own service (`save_case`), one every SAVE_PAUSE seconds in
another workspace, from the moment the worker starts the job until it ends; each save's
whole time is reported (the wait for the import's write lock is most of it at worst).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

from tests.workload.generate import generate_workspace

from .environment import REPOSITORY, USERNAME, Environment
from .figures import Figure, at_most, percentile, progress, report

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from evals_app.models import Case, Job

SAVE_PAUSE = 0.05  # seconds between two saves
SAVE_TARGET_MS = 200
MEMORY_TARGET_MB = 500


def measure_import_memory(
    environment: Environment, folder: Path, cases: int, seed: int
) -> list[Figure]:
    """Peak memory of `import_evals` of a generated workspace of `cases` cases."""
    progress(f"generating {cases} cases for the import's memory")
    workspace = generate_workspace(folder / f"import-{cases}", cases=cases, seed=seed)
    progress(f"measuring the memory of importing {cases} cases")
    result = subprocess.run(
        [sys.executable, "-m", "bench.import_memory", str(workspace.root), f"import-{cases}"],
        cwd=REPOSITORY,
        env=environment.subprocess_env(),
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise RuntimeError(f"the import of {cases} cases failed:\n{result.stderr}")
    peak = json.loads(result.stdout)
    return [
        report(
            Figure(
                f"import_peak_memory_{cases}_cases",
                peak["tracemalloc_peak"] / 2**20,
                "MB",
                at_most(MEMORY_TARGET_MB),
            )
        ),
        report(
            Figure(
                f"import_peak_rss_{cases}_cases",
                peak["max_rss"] / 2**20,
                "MB",
                at_most(MEMORY_TARGET_MB),
            )
        ),
    ]


def measure_saves_during_import(
    environment: Environment, folder: Path, cases: int, seed: int, other_workspace: str
) -> list[Figure]:
    """Saves of a case of `other_workspace` while a worker imports a .zip of `cases` cases."""
    from django.contrib.auth.models import User

    from evals_app.models import Case, Job
    from evals_app.services.jobs.requests import ask_import

    progress(f"generating and zipping {cases} cases for the import")
    workspace = generate_workspace(folder / f"zipped-{cases}", cases=cases, seed=seed)
    archive = folder / f"zipped-{cases}.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zipped:
        for path in sorted(workspace.root.rglob("*")):
            if path.is_file():
                zipped.write(path, path.relative_to(workspace.root.parent).as_posix())
    user = User.objects.get(username=USERNAME)
    case = Case.objects.filter(suite__workspace__name=other_workspace).order_by("pk").first()
    assert case is not None
    worker = _start_worker(environment)
    try:
        with archive.open("rb") as upload:
            job = ask_import(user, upload, archive.stat().st_size, archive.name, f"zipped-{cases}")
        progress(f"saving a case of {other_workspace} while the worker imports {cases} cases")
        seconds, while_writing, import_seconds = _save_until_done(job, case, user)
    finally:
        worker.terminate()
        worker.wait(timeout=60)
    job = Job.objects.get(pk=job.pk)
    if job.state != Job.State.DONE:
        raise RuntimeError(f"the import job ended {job.state}: {job.error}")
    waits = [second * 1000 for second in seconds]
    prefix = f"import_{cases}_zip_"
    return [
        report(Figure(prefix + "time", import_seconds, "s")),
        report(Figure(prefix + "saves", len(waits), "saves")),
        report(Figure(prefix + "saves_while_writing", while_writing, "saves")),
        report(Figure(prefix + "save_max", max(waits), "ms", at_most(SAVE_TARGET_MS))),
        report(Figure(prefix + "save_p99", percentile(waits, 0.99), "ms", at_most(SAVE_TARGET_MS))),
    ]


def _start_worker(environment: Environment) -> subprocess.Popen[bytes]:
    # The benchmark's own settings: the upload waits in the job files folder they name.
    variables = environment.subprocess_env()
    command = [sys.executable, "manage.py", "db_worker", "--no-reload", "--interval", "0.1"]
    return subprocess.Popen(
        [*command, "--no-startup-delay", "--verbosity", "0"], cwd=REPOSITORY, env=variables
    )


def _save_until_done(job: Job, case: Case, user: User) -> tuple[list[float], int, float]:
    """Each save's seconds from the job's start to its end, how many of them were made while
    the job wrote its batches, and the job's seconds."""
    from evals_app.models import Case, Job
    from evals_app.services.cases.editing import save_case

    running = Job.objects.filter(pk=job.pk)
    while running.filter(state=Job.State.QUEUED).exists():
        time.sleep(0.05)  # the worker is another process: its start shows when it commits
    started = time.perf_counter()
    seconds: list[float] = []
    while_writing = 0
    outcome = case.document.get("outcome", "")
    while True:
        finished, phrase = running.values_list("finished_at", "phrase").get()
        if finished is not None:
            break
        while_writing += phrase == "suites written"
        current = Case.objects.get(pk=case.pk)
        document = {**current.document, "outcome": f"{outcome} (saved {len(seconds)})"}
        start = time.perf_counter()
        save_case(current, document, current.version, user)
        seconds.append(time.perf_counter() - start)
        time.sleep(SAVE_PAUSE)
    return seconds, while_writing, time.perf_counter() - started

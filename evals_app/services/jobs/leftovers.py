"""The files jobs keep on disk, and removing what a failed, cancelled or killed job left
(docs/jobs.md, "Files").

Everything lives under AGENTV_JOB_FILES_DIR, named so that a sweep removes only the app's own:

- `tmp/job-ID-WHAT-*`: a running job's scratch (an export being written, a run's folder, an
  unpacked .zip, a link's preview clone), removed by the job itself when it ends, by the
  marking of a killed job, and by a worker that starts (for any job not running);
- `uploads/NAME.zip`: an upload waiting for its import job (a .zip, or a file of other tools'
  tests); removed when the import ends, when
  the job is cancelled or marked failed, and by a worker that starts (when no queued or running
  job names it and it is older than UPLOAD_GRACE);
- `uploads/NAME.zip.partial`: an upload still being copied there; removed by a worker that
  starts once it has not grown for UPLOAD_GRACE (a server killed while copying it);
- `exports/ID.zip`: an export job's archive, kept for download; `exports/ID.partial` while it
  is being written, removed like a job's scratch.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from django.conf import settings

from ...models import Job

UPLOAD_GRACE_SECONDS = 600  # an upload younger than this may still be on its way to its job
_SCRATCH = re.compile(r"^job-(?P<pk>[0-9]{1,18})-")
_EXPORT = re.compile(r"^(?P<pk>[0-9]{1,18})\.partial$")
_UPLOAD = re.compile(r"^[0-9a-f]{32}\.zip$")  # what queue.keep_upload names an upload
UNFINISHED = (Job.State.QUEUED, Job.State.RUNNING)


def job_files() -> Path:
    """The folder of uploads waiting for the worker, finished exports and jobs' scratch."""
    return Path(settings.AGENTV_JOB_FILES_DIR)


def scratch_folder(job: Job, what: str) -> Path:
    """A new private folder for `job`'s temporary files (`what`: export, run, import, …),
    named so that the sweep knows whose it is. The caller removes it when done."""
    root = job_files() / "tmp"
    root.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f"job-{job.pk}-{what}-", dir=root))


def remove_leftovers(job: Job) -> None:
    """Remove what `job` (failed, cancelled or killed) may have left: its scratch, its partial
    export, and the upload it was to import."""
    root = job_files()
    for path in (root / "tmp").glob(f"job-{job.pk}-*"):
        _remove(path)
    (root / "exports" / f"{job.pk}.partial").unlink(missing_ok=True)
    for upload in uploads_of(job.kind, job.arguments):
        (root / "uploads" / upload).unlink(missing_ok=True)


def uploads_of(kind: str, arguments: dict[str, Any]) -> list[str]:
    """The uploads a job of `kind` with `arguments` imports (their names in `uploads/`)."""
    if kind == Job.Kind.IMPORT:
        names = [arguments.get("upload")]
    elif kind == Job.Kind.IMPORT_TESTS:
        names = [entry[1] for entry in arguments.get("files") or [] if len(entry) == 2]
    else:
        return []
    return [name for name in names if isinstance(name, str) and _UPLOAD.match(name)]


def sweep_leftovers(now: float | None = None) -> list[Path]:
    """Remove every job file no unfinished job can need (a worker calls this as it starts);
    returns what was removed."""
    root = job_files()
    now = time.time() if now is None else now
    running = set(Job.objects.filter(state=Job.State.RUNNING).values_list("pk", flat=True))
    removed = []
    for folder, pattern in ((root / "tmp", _SCRATCH), (root / "exports", _EXPORT)):
        for path in _entries(folder):
            found = pattern.match(path.name)
            if found is not None and int(found["pk"]) not in running:
                removed.append(_remove(path))
    imports = Job.objects.filter(
        kind__in=(Job.Kind.IMPORT, Job.Kind.IMPORT_TESTS), state__in=UNFINISHED
    ).values_list("kind", "arguments")
    waiting = {name for kind, arguments in imports for name in uploads_of(kind, arguments)}
    for path in _entries(root / "uploads"):
        if not path.name.endswith((".zip", ".zip.partial")) or path.name in waiting:
            continue
        if now - path.stat().st_mtime > UPLOAD_GRACE_SECONDS:
            removed.append(_remove(path))
    return removed


def _entries(folder: Path) -> list[Path]:
    return list(folder.iterdir()) if folder.is_dir() else []


def _remove(path: Path) -> Path:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)
    return path

"""An export killed halfway (SIGKILL: no clean-up runs) leaves every previous file whole: each file
is either as the previous export wrote it or as the new one would, never cut off. The next
export then leaves no temporary file behind.

The export runs as `manage.py export_evals` in a child process on the test database. A
`sitecustomize` module on the child's path (no switch in the app) pauses it when it has
renewed three files and written a fourth, about to put it in place; then it is killed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from io import StringIO
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.management import call_command
from django.db import connection

from evals_app.models import Case, WorkspaceFile
from evals_app.services.imports.folders import import_workspace
from tests.conftest import EXAMPLES, REPOSITORY

pytestmark = pytest.mark.django_db(transaction=True)

PAUSE = """
import os, time

_replace = os.replace
_replacing = 0


def _pause_before_the_fourth_replace(source, target, *args, **kwargs):
    # Three files are renewed by then, and the fourth is written but not yet in place.
    global _replacing
    _replacing += 1
    if _replacing == 4:
        open({marker!r}, "w").close()
        time.sleep(300)
    _replace(source, target, *args, **kwargs)


os.replace = _pause_before_the_fourth_replace
"""


def database_url() -> str:
    """The test database, for the child process."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    user = quote(settings["USER"] or "")
    password = f":{quote(settings['PASSWORD'])}" if settings["PASSWORD"] else ""
    return f"postgres://{user}{password}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"


def export(out: Path) -> None:
    call_command("export_evals", "--out", str(out), stdout=StringIO())


def files_under(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in folder.rglob("*")
        if path.is_file()
    }


def is_temporary(name: str) -> bool:
    return Path(name).name.startswith(".") and name.endswith(".tmp")


def export_killed_halfway(out: Path, hook: Path) -> None:
    marker = hook / "paused"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(PAUSE.format(marker=str(marker)))
    environment = {**os.environ, "DATABASE_URL": database_url(), "PYTHONPATH": str(hook)}
    child = subprocess.Popen(
        [sys.executable, "manage.py", "export_evals", "--out", str(out)],
        cwd=REPOSITORY,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120
        while not marker.exists():
            assert child.poll() is None, child.stderr.read().decode()  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "the export never reached the pause"
            time.sleep(0.05)
        child.send_signal(signal.SIGKILL)
    finally:
        child.kill()
        child.wait()
        child.stderr.close()  # type: ignore[union-attr]
    assert child.returncode == -signal.SIGKILL


@pytest.fixture
def killed_export(tmp_path: Path) -> tuple[Path, dict[str, bytes], dict[str, bytes]]:
    """The export folder after an export was killed halfway, with what the previous export
    wrote there and what a complete export of the new state writes."""
    workspace = import_workspace(EXAMPLES, "Example workspace").workspace
    out = tmp_path / "out"
    export(out)
    folder = out / workspace.slug
    previous = files_under(folder)
    # Change every suite, every file and so formatted.jsonl: each file has a new version.
    for case in Case.objects.all():
        case.document["revised"] = True  # a key of its own: every period keeps it
        case.save()
    for file in WorkspaceFile.objects.all():
        file.text += "Revised.\n"
        file.save()
    export(tmp_path / "complete")
    complete = files_under(tmp_path / "complete" / workspace.slug)

    export_killed_halfway(out, tmp_path / "hook")

    return folder, previous, complete


def test_an_export_killed_halfway_leaves_each_file_whole(
    killed_export: tuple[Path, dict[str, bytes], dict[str, bytes]],
) -> None:
    folder, previous, complete = killed_export
    left = files_under(folder)

    whole = {name: left.get(name) in (previous[name], complete[name]) for name in previous}
    assert all(whole.values()), [name for name, ok in whole.items() if not ok]
    renewed = [name for name in previous if left[name] == complete[name] != previous[name]]
    kept = [name for name in previous if left[name] == previous[name] != complete[name]]
    assert renewed and kept  # it was really killed halfway
    leftovers = set(left) - set(previous)
    assert all(is_temporary(name) for name in leftovers), leftovers


def test_the_next_export_leaves_no_temporary_file_behind(
    killed_export: tuple[Path, dict[str, bytes], dict[str, bytes]],
) -> None:
    folder, _, complete = killed_export

    export(folder.parent)

    assert files_under(folder) == complete

"""Export in worker processes: what the workers write is exactly what one process writes.

A workspace of more than one batch of cases is formatted by forked workers, each writing the
suites its batch holds whole and its lines of formatted.jsonl, in the order of the batches;
the export writes the rest and puts everything in place. Here batches are made
tiny, so that the example workspace and the fixture of every period take many batches, with
suites whole in one and spread over several.
"""

from __future__ import annotations

import errno
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import pytest

from evals_app.models import Case, ReviewStatus, Workspace
from evals_app.services.cases.positions import GAP
from evals_app.services.exports import batches as export_batches
from evals_app.services.exports import exporting
from evals_app.services.exports import files as export_files
from evals_app.services.exports.batches import ExportWork, LineTurns
from evals_app.services.exports.exporting import export_workspace
from evals_app.services.exports.files import ExportFolder
from evals_app.services.imports.folders import import_workspace
from evals_app.services.profiles.workspace_formatter import WorkspaceFormatter
from tests.conftest import EXAMPLES
from tests.imports.test_periods import PERIODS

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def tiny_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exporting, "BATCH_SIZE", 2)
    monkeypatch.setattr(exporting, "WORKER_BATCH_SIZE", 2)


def files_under(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.mark.parametrize("root", [EXAMPLES, PERIODS], ids=["examples", "periods"])
@pytest.mark.parametrize("approved_only", [False, True])
def test_workers_write_exactly_what_one_process_writes(
    root: Path, approved_only: bool, tmp_path: Path
) -> None:
    workspace = import_workspace(root, "Workspace").workspace
    Case.objects.filter(position=GAP).update(status=ReviewStatus.APPROVED)  # each second case

    alone = export_workspace(workspace, tmp_path / "one", jobs=1, approved_only=approved_only)
    shared = export_workspace(workspace, tmp_path / "two", jobs=2, approved_only=approved_only)

    assert files_under(shared.folder) == files_under(alone.folder)
    assert (shared.suites, shared.cases, shared.files) == (alone.suites, alone.cases, alone.files)
    assert shared.formatted_lines == alone.formatted_lines > 0
    assert shared.warnings == alone.warnings


@pytest.mark.parametrize("root", [EXAMPLES, PERIODS], ids=["examples", "periods"])
@pytest.mark.parametrize("approved_only", [False, True])
def test_suites_spread_over_batches_are_written_as_suites_whole_in_one(
    root: Path, approved_only: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = import_workspace(root, "Workspace").workspace
    Case.objects.filter(position__in=[GAP, 2 * GAP, 3 * GAP]).update(status=ReviewStatus.APPROVED)
    edited = Case.objects.filter(position=2 * GAP).first()
    assert edited is not None
    edited.document = {**edited.document, "id": "edited"}
    edited.save()

    spread = export_workspace(workspace, tmp_path / "spread", jobs=1, approved_only=approved_only)
    monkeypatch.setattr(exporting, "BATCH_SIZE", 500)
    whole = export_workspace(workspace, tmp_path / "whole", jobs=1, approved_only=approved_only)

    assert files_under(spread.folder) == files_under(whole.folder)


def test_every_case_is_counted_once_as_it_is_written(tmp_path: Path) -> None:
    workspace = import_workspace(EXAMPLES, "Examples").workspace
    counted: list[None] = []

    summary = export_workspace(workspace, tmp_path, jobs=2, on_case=lambda: counted.append(None))

    assert len(counted) == summary.cases == Case.objects.count()


def exported_then_changed(root: Path, tmp_path: Path) -> tuple[Workspace, dict[str, bytes]]:
    """The workspace imported from `root`, exported under `tmp_path` (the files written), then
    every case changed, so that a second export would rewrite every file."""
    workspace = import_workspace(root, root.name).workspace
    before = files_under(export_workspace(workspace, tmp_path, jobs=2).folder)
    Case.objects.update(document={"id": "changed", "input": "Changed."})
    return workspace, before


def test_a_batch_that_fails_in_a_worker_fails_the_export_and_changes_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, before = exported_then_changed(EXAMPLES, tmp_path)
    first = Case.objects.order_by("suite__path", "position").first()
    assert first is not None
    original = export_batches.formatted_rows

    def failing(formatter: Any, suite: Any, document: Any, *args: Any, **kwargs: Any) -> Any:
        if suite.pk == first.suite_id:
            raise RuntimeError("formatting failed")
        return original(formatter, suite, document, *args, **kwargs)

    monkeypatch.setattr(export_batches, "formatted_rows", failing)  # forked workers see it
    with pytest.raises(RuntimeError, match="formatting failed"):
        export_workspace(workspace, tmp_path, jobs=2)

    assert files_under(tmp_path / workspace.slug) == before  # no temporary file either


def disk_full(descriptor: int, data: bytes) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_lines_a_worker_cannot_write_fail_the_export_and_change_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, before = exported_then_changed(PERIODS, tmp_path)  # suites whole in a batch

    monkeypatch.setattr(export_batches, "write_all", disk_full)  # forked workers see it
    with pytest.raises(OSError, match="No space left"):
        export_workspace(workspace, tmp_path, jobs=2)

    assert files_under(tmp_path / workspace.slug) == before  # no temporary file either


def die(descriptor: int, data: bytes) -> None:
    os._exit(1)


def test_a_worker_that_dies_fails_the_export_rather_than_leaving_it_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, before = exported_then_changed(PERIODS, tmp_path)

    monkeypatch.setattr(export_batches, "write_all", die)  # as it writes its lines
    with pytest.raises(BrokenProcessPool):
        export_workspace(workspace, tmp_path, jobs=2)

    assert files_under(tmp_path / workspace.slug) == before  # no temporary file either


def test_a_worker_refuses_to_query_the_database(tmp_path: Path) -> None:
    workspace = import_workspace(EXAMPLES, "Examples").workspace
    folder = ExportFolder(tmp_path)
    work = ExportWork(WorkspaceFormatter(workspace), [], folder, ("lm",), False)
    Workspace.objects.count()  # the connection the worker inherits is open
    context = get_context("fork")
    turns = LineTurns(-1, context.Value("q", 0), context.Condition(), context.Value("i", 0))

    with ProcessPoolExecutor(
        1,
        mp_context=context,
        initializer=export_batches._start_worker,
        initargs=(work, turns),
    ) as pool:
        refused = pool.submit(count_workspaces).exception()

    assert isinstance(refused, RuntimeError)
    assert "must not query the database" in str(refused)
    assert Workspace.objects.count() == 1  # and the export's own connection still works


def count_workspaces() -> int:
    return Workspace.objects.count()


def test_without_syncfs_each_file_is_synced_before_it_is_put_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = import_workspace(EXAMPLES, "Examples").workspace
    monkeypatch.setattr(export_files, "_syncfs", None)
    synced: list[str] = []
    original_fsync, original_replace = os.fsync, os.replace

    def fsync(descriptor: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{descriptor}"))
        original_fsync(descriptor)

    def replace(source: str, target: Any) -> None:
        assert source in synced, f"{target} put in place unsynced"
        original_replace(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    export_workspace(workspace, tmp_path, jobs=1)

    written = [path for path in (tmp_path / workspace.slug).rglob("*") if path.is_file()]
    assert len(synced) == len(written)

"""A new workspace's import: read and checked whole first, then written in batches into a
workspace nobody sees until the import commits; all of it or nothing (docs/jobs.md, "Imports")."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, Suite, Workspace, WorkspaceFile
from evals_app.services.imports import batches
from evals_app.services.imports.folders import ImportFailed, import_workspace
from evals_app.services.repository.settled import current_stamps
from tests import factories
from tests.api.api_calls import ApiClient
from tests.exports.test_byte_faithful_export import FOLDERS, changed_files, exported_bytes

pytestmark = pytest.mark.django_db

# Three batches of suites (batches.SUITES_PER_BATCH each at most), and a guideline file.
MANY: dict[str, str | bytes | dict[str, Any]] = {
    f"evals/suite-{n:03}.yaml": factories.eval_document(
        factories.simple_case(f"q{n}-a"), factories.simple_case(f"q{n}-b")
    )
    for n in range(120)
}
MANY["guidelines/style.md"] = "Be brief.\n"


def nothing_stored() -> bool:
    return not (
        Workspace.all_objects.exists()
        or Suite.objects.exists()
        or Case.objects.exists()
        or WorkspaceFile.objects.exists()
    )


def test_a_workspace_being_imported_is_seen_nowhere_until_the_import_commits(
    tmp_path: Path, client: Client
) -> None:
    root = factories.write_files(tmp_path / "repo", MANY)
    admin = factories.admin()  # who sees every workspace there is
    client.force_login(admin)
    api = ApiClient(factories.api_token(admin))
    seen: list[dict[str, object]] = []

    def look(done: int, total: int, phrase: str) -> None:
        if phrase == "suites written" and done > 0 and not seen:
            hidden = Workspace.all_objects.get(name="Hidden")
            slug = hidden.slug
            seen.append(
                {
                    "suites written": Suite.objects.filter(workspace=hidden).count(),
                    "list": "Hidden" in client.get(reverse("workspace_list")).content.decode(),
                    "page": client.get(reverse("workspace_detail", args=[slug])).status_code,
                    "search": client.get(
                        reverse("workspace_search", args=[slug]), {"q": "q1-a"}
                    ).status_code,
                    "api list": api.get("/workspaces").json()["total"],
                    "api cases": api.get(f"/workspaces/{slug}/cases").status_code,
                    "admin": "Hidden" in client.get("/admin/evals_app/workspace/").content.decode(),
                }
            )

    workspace = import_workspace(root, "Hidden", progress=look).workspace

    assert seen == [
        {
            "suites written": batches.SUITES_PER_BATCH,
            "list": False,
            "page": 404,
            "search": 404,
            "api list": 0,
            "api cases": 404,
            "admin": False,
        }
    ]
    assert client.get(workspace.get_absolute_url()).status_code == 200
    assert api.get("/workspaces").json()["total"] == 1


def test_an_eval_file_refused_last_refuses_the_import_before_anything_is_written(
    tmp_path: Path,
) -> None:
    root = factories.write_files(tmp_path / "repo", {**MANY, "evals/zzz.eval.yaml": "tests: [\n"})
    phrases: set[str] = set()

    with pytest.raises(ImportFailed) as refused:
        import_workspace(root, "Refused", progress=lambda done, total, phrase: phrases.add(phrase))

    assert [error.file for error in refused.value.errors] == ["evals/zzz.eval.yaml"]
    assert phrases == {"eval files read"}
    assert nothing_stored()


def test_an_error_in_a_later_batch_leaves_no_workspace(tmp_path: Path) -> None:
    root = factories.write_files(tmp_path / "repo", MANY)

    def fail_after_the_first_batch(done: int, total: int, phrase: str) -> None:
        if phrase == "suites written" and done > 0:
            raise OSError("No space left on device")

    with pytest.raises(OSError, match="No space left"):
        import_workspace(root, "Failed", progress=fail_after_the_first_batch)

    assert nothing_stored()


def test_a_refusal_in_the_final_transaction_leaves_no_workspace(tmp_path: Path) -> None:
    root = factories.write_files(tmp_path / "repo", MANY)

    def refuse(summary: object) -> None:
        raise ImportFailed([])

    with pytest.raises(ImportFailed):
        import_workspace(root, "Refused at the end", then=refuse)

    assert nothing_stored()


def dead_process() -> str:
    """A process name (host:pid) as an importing process records it, of a process that ended."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return f"{socket.gethostname()}:{child.pid}"


def test_the_next_import_removes_what_a_dead_import_left_hidden(tmp_path: Path) -> None:
    left = Workspace.all_objects.create(name="Left", slug="left", importing_process=dead_process())
    factories.suite(left)
    root = factories.write_files(tmp_path / "repo", {"evals/a.yaml": MANY["evals/suite-000.yaml"]})

    workspace = import_workspace(root, "Left").workspace

    assert list(Workspace.all_objects.values_list("pk", flat=True)) == [workspace.pk]
    assert list(Suite.objects.values_list("workspace", flat=True)) == [workspace.pk]


def test_a_running_import_holds_its_workspace_name(tmp_path: Path) -> None:
    running = f"{socket.gethostname()}:{os.getpid()}"  # alive: this very process
    Workspace.all_objects.create(name="Busy", slug="busy", importing_process=running)
    root = factories.write_files(tmp_path / "repo", {"evals/a.yaml": MANY["evals/suite-000.yaml"]})

    with pytest.raises(ImportFailed, match="'Busy' already exists or is being imported"):
        import_workspace(root, "Busy")

    assert Workspace.all_objects.get().importing_process == running


def stored_rows(workspace: Workspace) -> list[tuple[object, ...]]:
    """Everything an import stores of each suite and case, without keys and times."""
    suites = workspace.suites.order_by("path").values_list(
        "path",
        "document",
        "base_document",
        "source_text",
        "base_source_text",
        "source_digest",
        "base_blob",
        "base_reads",
        "cases_key",
        "file_format",
        "profile",
        "referenced_by",
    )
    cases = Case.objects.filter(suite__workspace=workspace).order_by("suite__path", "position")
    return list(suites) + list(
        cases.values_list(
            "suite__path",
            "position",
            "case_id",
            "document",
            "base_document",
            "summary_current",
            "input_turns",
            "role_markers",
            "marker_reason",
            "format_warnings",
            "format_problem",
        )
    )


# (suites, characters of cases) a batch holds at most: one case per batch; batches that
# end in the middle of a suite, or with a suite none of whose first cases fits in them.
BATCH_SHAPES = [(1, 1), (50, 1), (50, 1_500), (3, 4_000)]


@pytest.mark.parametrize("shape", BATCH_SHAPES)
@pytest.mark.parametrize("name", ["examples", "periods"])
def test_small_batches_store_what_one_batch_stores(
    name: str, shape: tuple[int, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = FOLDERS[name]
    whole = import_workspace(root, "whole").workspace
    monkeypatch.setattr(batches, "SUITES_PER_BATCH", shape[0])
    monkeypatch.setattr(batches, "BATCH_TEXT", shape[1])

    batched = import_workspace(root, "batched").workspace

    assert stored_rows(batched) == stored_rows(whole)
    exported = exported_bytes(batched, tmp_path)
    assert exported == exported_bytes(whole, tmp_path / "whole")
    assert changed_files(root, exported) == []
    stamps = current_stamps(batched.pk)
    assert all(stamps[suite.pk] == suite.settled_stamp for suite in batched.suites.all())

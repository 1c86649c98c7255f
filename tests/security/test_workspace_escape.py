"""File references and files that try to leave the workspace read nothing outside it: `../..`,
absolute paths, and symbolic links to files or folders outside, on import from disk, in the
export that follows, and in the editor's preview (which reads only stored files)."""

from __future__ import annotations

import os
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from evals_app.models import Case
from evals_app.services.imports.folders import ImportFailed, import_workspace
from tests.editor.test_case_editor_views import form_of
from tests.factories import database_snapshot, write_files

pytestmark = pytest.mark.django_db

SECRET = "TOP-SECRET-d41d8cd98f00"
SECRET_SUITE = f"""$schema: agentv-eval-v2
evalcases:
  - id: {SECRET}
    outcome: {SECRET}
    input_messages:
      - {{role: user, content: {SECRET}}}
"""


def file_block(value: str) -> dict[str, str]:
    return {"type": "file", "value": value}


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the workspace holding secrets: a text file and an eval file."""
    write_files(
        tmp_path / "outside",
        {
            "secret.md": f"{SECRET}\n",
            "secret.yaml": SECRET_SUITE,
            "config.yaml": {"$schema": "agentv-config-v2", "guideline_patterns": [f"{SECRET}/*"]},
        },
    )
    return tmp_path / "outside"


@pytest.fixture
def workspace_root(tmp_path: Path, outside: Path) -> Path:
    """A workspace whose one case references the secret every way there is, and one allowed
    symbolic link (inside the workspace) as a control."""
    root = tmp_path / "workspace"
    references = [
        "../outside/secret.md",
        "../../outside/secret.md",
        "evals/../../outside/secret.md",
        str(outside / "secret.md"),  # absolute
        "linked-file.md",  # a symbolic link to the secret
        "linked-folder/secret.md",  # through a symbolic link to the folder
        "allowed-link.md",  # a symbolic link to a file inside the workspace
    ]
    document = {
        "$schema": "agentv-eval-v2",
        "evalcases": [
            {
                "id": "escape",
                "outcome": "Reads nothing outside.",
                "input_messages": [
                    {"role": "user", "content": [file_block(ref) for ref in references]}
                ],
            }
        ],
    }
    write_files(root, {"evals/escape.yaml": document, "inside.md": "Inside text.\n"})
    os.symlink(outside / "secret.md", root / "evals" / "linked-file.md")
    os.symlink(outside, root / "evals" / "linked-folder")
    os.symlink(root / "inside.md", root / "evals" / "allowed-link.md")
    return root


def stored_text() -> str:
    return repr(database_snapshot())


def test_references_leaving_the_workspace_import_nothing_from_outside(
    workspace_root: Path, tmp_path: Path
) -> None:
    summary = import_workspace(workspace_root, "escape")

    assert SECRET not in stored_text()
    assert SECRET not in "\n".join(summary.warnings)
    assert summary.workspace.files.get().text == "Inside text.\n"  # the allowed link, only

    call_command("export_evals", "--out", str(tmp_path / "export"), "--toon", stdout=StringIO())
    exported = [path for path in (tmp_path / "export").rglob("*") if path.is_file()]
    assert any(path.name == "formatted.jsonl" for path in exported)
    leaks = [path for path in exported if SECRET in path.read_text(encoding="utf-8")]
    assert not leaks


def test_an_eval_file_linked_from_outside_is_not_imported(
    workspace_root: Path, outside: Path
) -> None:
    os.symlink(outside / "secret.yaml", workspace_root / "evals" / "linked-suite.yaml")

    try:
        import_workspace(workspace_root, "escape")
    except ImportFailed as refused:
        assert SECRET not in str(refused)

    assert SECRET not in stored_text()


def test_a_workspace_config_linked_from_outside_is_not_read(
    workspace_root: Path, outside: Path
) -> None:
    (workspace_root / ".agentv").mkdir()
    os.symlink(outside / "config.yaml", workspace_root / ".agentv" / "config.yaml")

    try:
        import_workspace(workspace_root, "escape")
    except ImportFailed as refused:
        assert SECRET not in str(refused)

    assert SECRET not in stored_text()


def test_a_folder_linked_from_outside_is_not_searched_for_eval_files(
    workspace_root: Path, outside: Path
) -> None:
    os.symlink(outside, workspace_root / "evals" / "linked-evals")

    import_workspace(workspace_root, "escape")

    assert SECRET not in stored_text()


@pytest.mark.parametrize("reference", ["../outside/secret.md", "absolute"])
def test_the_preview_reads_stored_files_only(
    signed_in: Client, workspace_root: Path, outside: Path, reference: str
) -> None:
    workspace = import_workspace(workspace_root, "escape").workspace
    case = Case.objects.get(suite__workspace=workspace, case_id="escape")
    editor = reverse("case_editor", args=[workspace.slug, case.suite.pk, case.pk])
    form = form_of(signed_in.get(editor).content.decode())
    form["input-0-block-0-value"] = (
        str(outside / "secret.md") if reference == "absolute" else reference
    )

    response = signed_in.post(f"{editor}preview/", form, HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    assert "was not found" in response.content.decode()
    assert SECRET not in response.content.decode()

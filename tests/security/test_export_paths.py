"""Export never writes outside its folder: not through a stored path that climbs out, nor
through a symbolic link already in the folder (evals_app/services/exporting.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from evals_app.services.exports.exporting import export_workspace
from tests import factories

pytestmark = pytest.mark.django_db


def test_a_stored_path_that_climbs_out_is_refused_and_nothing_is_written_there(
    tmp_path: Path,
) -> None:
    workspace = factories.workspace("Escape")
    factories.workspace_file(workspace, "../../escaped/notes.md")

    with pytest.raises(ValueError, match="refusing to write outside the export folder"):
        export_workspace(workspace, tmp_path / "out")

    assert not (tmp_path / "escaped").exists()


def test_a_linked_folder_leading_elsewhere_is_refused(tmp_path: Path) -> None:
    workspace = factories.workspace("Linked")
    factories.suite(workspace, "evals/review.yaml")
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "out" / workspace.slug).mkdir(parents=True)
    os.symlink(outside, tmp_path / "out" / workspace.slug / "evals")

    with pytest.raises(ValueError, match="'evals/review.yaml'"):
        export_workspace(workspace, tmp_path / "out")

    assert list(outside.iterdir()) == []


def test_a_linked_file_leading_elsewhere_is_refused(tmp_path: Path) -> None:
    workspace = factories.workspace("Linked file")
    factories.workspace_file(workspace, "docs/notes.md")
    secret = tmp_path / "secret.md"
    secret.write_text("mine")
    (tmp_path / "out" / workspace.slug / "docs").mkdir(parents=True)
    os.symlink(secret, tmp_path / "out" / workspace.slug / "docs" / "notes.md")

    with pytest.raises(ValueError, match="'docs/notes.md'"):
        export_workspace(workspace, tmp_path / "out")

    assert secret.read_text() == "mine"

"""An import that fails halfway through writing (the database refuses a row) writes nothing: the
workspace, its files and the suites it would replace stay exactly as they were.

The failure is injected at the database driver, on the first statement that writes the second
suite's last turn, so it holds whichever way the import batches its inserts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.db import DatabaseError, connection

from evals_app.services.imports.folders import import_workspace
from tests.factories import database_snapshot, eval_document, simple_case, write_files

pytestmark = pytest.mark.django_db

POISON = "the row the database refuses"


def workspace_folder(root: Path, version: str) -> Path:
    """Two suites (the second ends with the poisoned turn in `version` "new") and a file."""
    last_turn = POISON if version == "new" else "A last question."
    return write_files(
        root,
        {
            "notes/context.md": f"Context, {version} version.\n",
            "evals/a-first.yaml": eval_document(
                simple_case(
                    "first",
                    outcome=f"First, {version}.",
                    input_messages=[
                        {
                            "role": "user",
                            "content": [{"type": "file", "value": "../notes/context.md"}],
                        }
                    ],
                )
            ),
            "evals/b-second.yaml": eval_document(
                simple_case("second", outcome=f"Second, {version}."),
                simple_case("third", input_messages=[{"role": "user", "content": last_turn}]),
            ),
        },
    )


def test_an_import_failing_halfway_leaves_the_database_as_it_was(tmp_path: Path) -> None:
    import_workspace(workspace_folder(tmp_path / "old", "old"), "Team")
    before = database_snapshot()
    writes_before_the_failure: list[str] = []

    def refuse_the_poisoned_row(
        execute: Any, sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        if POISON in repr(params):  # one value, or a column of them (PostgreSQL's UNNEST)
            raise DatabaseError("injected failure: disk full")
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            writes_before_the_failure.append(sql[:60])
        return execute(sql, params, many, context)

    with connection.execute_wrapper(refuse_the_poisoned_row), pytest.raises(DatabaseError):
        import_workspace(workspace_folder(tmp_path / "new", "new"), "Team")

    assert len(writes_before_the_failure) >= 3  # the workspace, its file, the first suite…
    assert database_snapshot() == before

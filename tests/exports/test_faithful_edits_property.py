"""Random edits of random cases of real-shaped files (comments, anchors, flow lists, block
scalars, CRLF, no final newline) made through the services, then exported: the file reads as
the stored cases, and what was not touched keeps its bytes (docs/formats.md, "Round trip")."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evals_app.eval_files.json_text import decode_json, encode_json
from evals_app.eval_files.reading import read_eval_file
from evals_app.models import Suite, Workspace
from evals_app.services.cases.editing import save_case
from evals_app.services.cases.list_changes import delete_case, duplicate_case, move_case
from evals_app.services.exports.exporting import export_workspace
from evals_app.services.imports.folders import import_workspace
from tests.eval_files.test_faithful_writing import eval_files, values

pytestmark = pytest.mark.django_db

PATH = "evals/shaped.eval.yaml"
EDITS = ["string", "key", "delete", "duplicate", "move"]


def edit(suite: Suite, index: int, kind: str, value: str) -> set[int]:
    """Make the edit `kind` of the case at `index` through the services; the indexes (in the
    file as read) of the cases whose lines may change."""
    cases = list(suite.cases.order_by("position"))
    case = cases[index]
    if kind == "string":
        save_case(case, {**case.document, "criteria": value}, case.version, None)
    elif kind == "key":
        save_case(case, {**case.document, "metadata": {"owner": value}}, case.version, None)
    elif kind == "delete":
        delete_case(case)
    elif kind == "duplicate":
        duplicate_case(case)
        return set()
    else:
        move_case(case, "down" if index + 1 < len(cases) else "up")
        return {index, index + 1 if index + 1 < len(cases) else index - 1}
    return {index}


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(eval_files(), st.data())
def test_random_edits_through_the_services_export_only_their_changes(
    drawn: tuple[str, list[str]], data: Any
) -> None:
    original, blocks = drawn
    crlf = "\r\n" in original
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "evals").mkdir()
        (root / PATH).write_bytes(original.encode())
        workspace = import_workspace(root, "shaped").workspace
        suite = workspace.suites.get(path=PATH)
        index = data.draw(st.integers(min_value=0, max_value=len(blocks) - 1))
        kind = data.draw(st.sampled_from(EDITS))
        touched = edit(suite, index, kind, data.draw(values))

        written = (export_workspace(workspace, root / "out", jobs=1).folder / PATH).read_bytes()

        stored = [case.document for case in suite.cases.order_by("position")]
        Workspace.objects.filter(pk=workspace.pk).delete()  # the next example imports anew
    text = written.decode()
    assert decode_json(encode_json(read_eval_file(text).cases)) == stored
    assert text.startswith("# header comment")
    assert ("\r\n" in text) == crlf
    uses_alias = any("*shared" in block for block in blocks)
    for number, block in enumerate(blocks):
        if number in touched or (uses_alias and kind in ("delete", "move") and 0 in touched):
            continue
        assert block.rstrip("\n").replace("\n", "\r\n" if crlf else "\n") in text
    deleted = blocks[index] if kind == "delete" else ""
    for line in original.splitlines():
        if line.strip().startswith("#") and line.strip() not in deleted:
            assert line in text.splitlines()

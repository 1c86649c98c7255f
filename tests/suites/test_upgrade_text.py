"""Upgrading a suite is the one operation that may rewrite its file: the new text, keeping the
comments of the keys it keeps, is what the suite is written from next (docs/formats.md,
"Round trip")."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals_app.eval_files.json_text import decode_json, encode_json
from evals_app.eval_files.reading import read_eval_file
from evals_app.models import Suite
from evals_app.services.cases.editing import save_case
from evals_app.services.exports.exporting import export_workspace
from evals_app.services.imports.folders import import_workspace
from evals_app.services.suites.upgrade import upgrade_suites
from tests.factories import write_files

pytestmark = pytest.mark.django_db

OLD = """\
# Team notes on these cases
description: Greetings   # shown in the list
evalcases:
  # the first case
  - id: greeting
    expected_outcome: Greets back.   # the criteria
    input: Hello there!

  # the second case
  - id: farewell
    input: Bye now!
    expected_outcome: Says goodbye.
"""
PATH = "evals/old.yaml"


@pytest.fixture
def upgraded(tmp_path: Path) -> Suite:
    workspace = import_workspace(write_files(tmp_path / "w", {PATH: OLD}), "w").workspace
    suite = workspace.suites.get(path=PATH)
    upgrade_suites(workspace, [suite], None)
    suite.refresh_from_db()
    return suite


def test_the_upgraded_text_reads_as_the_upgraded_suite(upgraded: Suite) -> None:
    assert upgraded.source_text is not None
    contents = read_eval_file(upgraded.source_text)
    cases = [case.document for case in upgraded.cases.order_by("position")]

    assert decode_json(encode_json(contents.header)) == upgraded.document
    assert decode_json(encode_json(contents.cases)) == cases


def test_the_upgrade_keeps_the_comments_of_the_keys_it_keeps(upgraded: Suite) -> None:
    assert upgraded.source_text is not None
    kept = ["# Team notes on these cases", "# shown in the list", "# the first case"]
    kept.append("# the second case")
    for comment in kept:
        assert comment in upgraded.source_text


def test_after_the_upgrade_an_edit_changes_only_its_own_lines(
    upgraded: Suite, tmp_path: Path
) -> None:
    case = upgraded.cases.get(case_id="farewell")
    save_case(case, {**case.document, "vars": {"input": "Goodbye!"}}, case.version, None)

    folder = export_workspace(upgraded.workspace, tmp_path / "out", jobs=1).folder

    assert upgraded.source_text is not None
    written = (folder / PATH).read_text()
    assert written == upgraded.source_text.replace("Bye now!", "Goodbye!")

"""An eval file with YAML merge keys exports its merge keys as merge keys, and its rows of
`formatted.jsonl` as AgentV reads the cases, merged (docs/formats.md, "Merge keys")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals_app.eval_files.merge_keys import merged
from evals_app.eval_files.yaml_loader import load_yaml
from evals_app.services.exports.exporting import FORMATTED_FILE, export_workspace
from tests.eval_files.test_merge_keys import FILE
from tests.factories import imported_workspace, write_files

pytestmark = pytest.mark.django_db


@pytest.fixture
def exported(tmp_path: Path) -> Path:
    workspace = imported_workspace(write_files(tmp_path / "ws", {"evals/merge.yaml": FILE}), "M")
    return export_workspace(workspace, tmp_path / "out").folder


def test_the_exported_file_keeps_plain_merge_keys_and_means_the_same(exported: Path) -> None:
    text = (exported / "evals/merge.yaml").read_text()

    assert "'<<'" not in text and text.count("<<:") == 2
    assert merged(load_yaml(text).data)["tests"] == merged(load_yaml(FILE).data)["tests"]


def test_formatted_rows_hold_what_the_merge_key_gives(exported: Path) -> None:
    rows = [json.loads(line) for line in (exported / FORMATTED_FILE).read_text().splitlines()]
    greeting = next(row for row in rows if row["id"] == "greeting")

    assert "Hello" in greeting["question"]
    assert greeting["system_message"] is not None and "Be brief." in greeting["system_message"]

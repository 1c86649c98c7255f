"""Our files of each older period, upgraded, hold no key today's AgentV refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals_app.eval_files.reading import read_eval_file
from evals_app.eval_files.upgrade import upgrade_eval_file
from tests.agentv_rejections import rejected_keys

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "upgrade"
OLDER_FILES = ["seeds.yaml", "december.yaml", "eval-cases.yaml", "cases.yaml", "tests-early.yaml"]


@pytest.mark.parametrize("name", OLDER_FILES)
def test_an_older_file_upgraded_has_no_key_agentv_refuses(name: str) -> None:
    contents = read_eval_file((FIXTURES / "evals" / name).read_bytes())
    assert rejected_keys(contents.header, contents.cases) or contents.cases_key != "tests"

    upgraded = upgrade_eval_file(contents.header, contents.cases, contents.cases_key)

    assert rejected_keys(upgraded.header, upgraded.documents) == []
    assert "tests" in upgraded.header and upgraded.header["prompts"] == ["{{ input }}"]

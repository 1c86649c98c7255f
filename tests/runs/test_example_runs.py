"""The examples with `make run`'s local setup: the mock target's judge grades, a check the mock's
answer misses fails, and the example that needs a command says so before the click
(docs/runs.md, "Targets")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from evals_app.models import RunResult, Suite
from evals_app.services.runs.local_targets import write_local_targets
from tests.conftest import REPOSITORY
from tests.factories import imported_workspace, member

from .sandbox import run_case, sandbox_workspace

pytestmark = pytest.mark.django_db

GRADED = """\
tests:
  - id: judged
    input: Is support open at the weekend?
    criteria: Says that support is open on Saturdays and Sundays.
  - id: hours
    input: When is support open?
    assertions:
      - type: regex
        value: "8[:h.]?0?0?"
        required: true
"""


@pytest.fixture
def local_targets(tmp_path: Path, settings: Any) -> Path:
    path = tmp_path / "data" / "local-targets.yaml"
    assert write_local_targets(path)
    settings.AGENTV_TARGETS_FILE = str(path)
    return path


def test_the_mock_judge_passes_a_case_and_a_missed_check_fails(
    tmp_path: Path, local_targets: Path
) -> None:
    workspace = sandbox_workspace(tmp_path / "workspace", GRADED)
    judged = run_case(workspace, "judged").results.get()
    assert (judged.verdict, judged.score) == (RunResult.Verdict.PASS, 1.0)
    hours = run_case(workspace, "hours").results.get()
    assert (hours.verdict, hours.score) == (RunResult.Verdict.FAIL, 0.0)


def test_the_local_targets_file_is_written_once(local_targets: Path) -> None:
    local_targets.write_text("targets: []\n", encoding="utf-8")
    assert not write_local_targets(local_targets)
    assert local_targets.read_text(encoding="utf-8") == "targets: []\n"


def test_the_code_review_example_says_before_the_click_why_it_cannot_run(
    tmp_path: Path,
) -> None:
    workspace = imported_workspace(REPOSITORY / "examples")
    suite = Suite.objects.get(workspace=workspace, path="evals/coding/review.yaml")
    browser = Client()
    browser.force_login(member(workspace, "editor", username="edna"))
    html = browser.get(f"/w/{workspace.slug}/suites/{suite.pk}/").content.decode()
    assert 'id="run-all" disabled' in html
    assert (
        "review-cart-subtotal › execution › evaluators #2: a `code` grader starts a program" in html
    )

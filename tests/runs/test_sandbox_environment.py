"""A run never reads the server's environment: AgentV gets PATH, the locale, a HOME and TMPDIR
inside the run's folder and the variables the operator's targets file names; a suite naming
any variable is refused; AgentV's messages name workspace paths (docs/security.md, "Runs")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from evals_app.models import Case, Job, Run, RunResult
from evals_app.services.runs.starting import RunRefused
from tests.api.api_calls import ApiClient
from tests.factories import api_token, database_snapshot, member
from tests.html_forms import form_fields

from .conftest import JudgeServer
from .sandbox import PLAIN_TEST, run_case, sandbox_workspace

pytestmark = pytest.mark.django_db

SECRET = "the-secret-key-of-this-server-0123456789"
NAMES_THE_KEY = """\
tests:
  - id: leak
    input: What is 2 + 2?
    assertions:
      - type: contains
        value: ${{ DJANGO_SECRET_KEY }}
"""


def _stored() -> str:
    """Every stored row of the app, runs and their results too."""
    runs = [*Run.objects.values_list(), *RunResult.objects.values_list()]
    return repr(database_snapshot()) + repr(runs) + repr(list(Job.objects.values_list()))


@pytest.fixture
def secret_key(settings: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("DJANGO_SECRET_KEY", SECRET)
    settings.SECRET_KEY = SECRET
    return SECRET


def test_a_suite_naming_the_secret_key_is_refused_and_the_key_shows_nowhere(
    tmp_path: Path, secret_key: str
) -> None:
    workspace = sandbox_workspace(tmp_path, NAMES_THE_KEY)
    case = Case.objects.get(suite__workspace=workspace, case_id="leak")
    editor = member(workspace, "editor", username="edna")
    browser = Client()
    browser.force_login(editor)
    editor_page = f"/w/{workspace.slug}/suites/{case.suite.pk}/cases/{case.pk}/"
    suite_page = f"/w/{workspace.slug}/suites/{case.suite.pk}/"
    reason = "A run never reads the server&#x27;s environment: evals/suite.eval.yaml names"
    answers = []
    for page in (editor_page, suite_page):
        html = browser.get(page).content.decode()
        assert reason in html  # said beside the disabled Run, before any click
        answers.append(html)
    form = form_fields(answers[0], "case-form")
    posted = browser.post(f"{editor_page}run/", {**form, "run_target": "mock"})
    answers.append(posted.content.decode())
    api = ApiClient(api_token(editor))
    address = {"suite": case.suite.path, "id": "leak"}
    refused = api.post(f"/workspaces/{workspace.slug}/case/run", {"target": "mock"}, **address)
    assert refused.status_code == 422
    assert (
        "evals/suite.eval.yaml names the variable `DJANGO_SECRET_KEY`"
        in (refused.json()["message"])
    )
    answers.append(refused.content.decode())
    answers.append(api.get(f"/workspaces/{workspace.slug}/case", **address).content.decode())
    assert not Run.objects.exists()
    assert not any(secret_key in answer for answer in answers)
    assert secret_key not in _stored()


def test_a_template_reading_the_environment_is_refused(tmp_path: Path) -> None:
    suite = "tests:\n" + PLAIN_TEST.replace("fixed answer", "'{{ env.PATH }}'")
    with pytest.raises(RunRefused, match="evals/suite.eval.yaml names the variable `PATH`"):
        run_case(sandbox_workspace(tmp_path, suite), "plain")


def test_agentv_gets_only_path_the_locale_its_own_home_and_the_targets_variables(
    tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch, judge_targets: JudgeServer
) -> None:
    settings.AGENTV_RUNS_ALLOW_COMMANDS = True
    monkeypatch.setenv("DJANGO_SECRET_KEY", SECRET)
    monkeypatch.setenv("AGENTV_CREDENTIALS_KEY", SECRET)
    monkeypatch.setenv("SOME_SERVER_VARIABLE", SECRET)
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    dump = tmp_path / "environment"
    suite = (
        "tests:\n"
        "  - id: env\n"
        "    input: What is 2 + 2?\n"
        "    assertions:\n"
        "      - type: code-grader\n"
        f"        command: [sh, -c, 'env > {dump}; pwd >> {dump}; cat > /dev/null; echo {{}}']\n"
    )
    run = run_case(sandbox_workspace(tmp_path / "workspace", suite), "env")
    assert run.job.state == Job.State.DONE, run.job.error
    lines = dump.read_text(encoding="utf-8").splitlines()
    variables = dict(line.split("=", 1) for line in lines if "=" in line)
    assert SECRET not in "\n".join(lines)
    run_folder = Path(variables["HOME"]).parent
    assert Path(variables["TMPDIR"]) == run_folder / "tmp"
    assert lines[-1].startswith(str(run_folder / "workspace"))
    assert variables["LC_ALL"] == "C.UTF-8"
    assert "PATH" in variables
    # The operator's targets file names these: the judge's key reaches AgentV.
    assert variables["RUN_TEST_JUDGE_KEY"] == "secret-judge-key"
    assert not run_folder.exists()  # removed with the run


def test_agentvs_messages_name_workspace_paths_not_the_run_folder(
    tmp_path: Path, settings: Any
) -> None:
    settings.AGENTV_RUNS_ALLOW_COMMANDS = True
    suite = (
        "tests:\n"
        "  - id: failing\n"
        "    input: What is 2 + 2?\n"
        "    assertions:\n"
        "      - type: code-grader\n"
        "        command: [sh, -c, 'cat > /dev/null; echo \"in $(pwd)/x\" >&2; exit 3']\n"
    )
    run = run_case(sandbox_workspace(tmp_path, suite), "failing")
    result = run.results.get()
    assert result.verdict != RunResult.Verdict.PASS
    stored = _stored()
    assert "in evals/x" in stored, result.graders
    assert "agentv-run-" not in stored

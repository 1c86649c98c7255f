"""A run of a case with the real pinned AgentV: the answers, every grade, and the refusals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evals_app.models import Job, Membership, Run, RunResult, Workspace
from evals_app.services.runs.starting import RunRefused, run_refusal, start_run
from evals_app.services.runs.targets import MOCK_ANSWER
from tests.factories import user

from .conftest import (
    RUBRIC_REASONING,
    JudgeServer,
    access_of,
    agentv_label,
    case_named,
    editor_of,
    on_agentv_5,
    workspace_of,
)

pytestmark = pytest.mark.django_db

SINGLE_TURN = """\
  - id: add
    input: What is 2 + 2?
    assertions:
      - type: contains
        value: mock target
      - type: equals
        value: "5"
"""
CONVERSATION = """\
  - id: chat
    mode: conversation
    input: You are a calculator.
    turns:
      - input: Hello
        assertions:
          - type: contains
            value: fixed answer
      - input: What is 2 + 2?
        assertions:
          - type: contains
            value: Four
"""
RUBRIC = """\
  - id: rubric
    input: What is 2 + 2?
    criteria: Says four.
    assertions:
      - Says four
      - type: llm-grader
        prompt: "Does {{ output }} say four?"
"""
SCRIPT = """\
  - id: scripted
    input: What is 2 + 2?
    assertions:
      - type: code-grader
        command:
          - python3
          - -c
          - >-
            import json; print(json.dumps({"score": 1, "pass": True, "reason": "ran",
            "assertions": [{"text": "ran", "passed": True}]}))
"""


def run_of(workspace: Workspace, case_id: str, target: str = "mock", role: str = "editor") -> Run:
    """Run the case as stored, as an editor (the job runs at once in tests)."""
    case = case_named(workspace, case_id)
    account = editor_of(workspace)
    run = start_run(
        access_of(workspace, role), account, case.suite, [(case, case.document)], target
    )
    run.job.refresh_from_db()
    return run


def only_result(run: Run) -> RunResult:
    assert run.job.state == Job.State.DONE, run.job.error
    [result] = run.results.all()
    return result


def test_a_single_turn_test_gets_the_mock_answer_and_each_grader(tmp_path: Path) -> None:
    run = run_of(workspace_of(tmp_path, SINGLE_TURN), "add")
    result = only_result(run)
    assert result.answers == [MOCK_ANSWER]
    assert result.verdict == RunResult.Verdict.FAIL
    assert result.score == 0.5
    assert [(g["type"], g["verdict"], g["score"]) for g in result.graders] == [
        ("contains", "pass", 1.0),
        ("equals", "fail", 0.0),
    ]
    assert result.graders[1]["assertions"][0] == {
        "text": 'Output does not equal "5"',
        "passed": False,
        "evidence": "",
    }
    assert f"AgentV {run.agentv_version}" == agentv_label()
    assert run.job.result["summary"] == "0 of 1 tests passed with mock."


def test_a_conversation_keeps_each_turns_answer_and_grade(tmp_path: Path) -> None:
    result = only_result(run_of(workspace_of(tmp_path, CONVERSATION), "chat"))
    assert result.answers == [MOCK_ANSWER, MOCK_ANSWER]
    assert [(g["name"], g["verdict"]) for g in result.graders] == [
        ("turn-1", "pass"),
        ("turn-2", "fail"),
    ]


def test_a_rubric_is_graded_by_the_judge_target_over_http(
    tmp_path: Path, judge_targets: JudgeServer
) -> None:
    result = only_result(run_of(workspace_of(tmp_path, RUBRIC), "rubric", target="graded-mock"))
    assert result.answers == ["Four."]
    assert result.verdict == RunResult.Verdict.PASS
    rubric, scored = result.graders
    # AgentV 5 runs the suite as Upgrade writes it: the judge is today's `llm-rubric`.
    judge_type = "llm-rubric" if on_agentv_5() else "llm-grader"
    assert (rubric["type"], rubric["verdict"], rubric["score"]) == (judge_type, "pass", 1.0)
    assert rubric["assertions"][0]["text"] == "[rubric-1] Says four"
    # The judge's reasoning for each rubric item, as AgentV parsed it from the HTTP answer.
    assert rubric["assertions"][0]["evidence"] == RUBRIC_REASONING
    assert scored["assertions"] == [{"text": "Says four", "passed": True, "evidence": "Four."}]
    assert result.input_tokens is not None
    # The judge saw the model's answer; the key came from the server's environment.
    assert any("Four." in str(request["messages"]) for request in judge_targets.requests)


def test_a_secret_of_the_environment_is_never_stored(
    tmp_path: Path, judge_targets: JudgeServer
) -> None:
    run = run_of(workspace_of(tmp_path, RUBRIC), "rubric", target="graded-mock")
    stored = [str(value) for value in RunResult.objects.values_list()] + [
        str(value) for value in Run.objects.values_list()
    ]
    assert not any("secret-judge-key" in text for text in stored)
    assert run.job.state == Job.State.DONE


def test_a_script_grader_is_refused_without_allow_commands(tmp_path: Path) -> None:
    workspace = workspace_of(tmp_path, SCRIPT)
    with pytest.raises(RunRefused) as refused:
        run_of(workspace, "scripted")
    assert "AGENTV_RUNS_ALLOW_COMMANDS" in str(refused.value)
    assert "scripted › assertions #1: a `code-grader` grader starts a program" in str(refused.value)
    assert not Run.objects.exists()


def test_a_script_grader_runs_when_commands_are_allowed(tmp_path: Path, settings: Any) -> None:
    settings.AGENTV_RUNS_ALLOW_COMMANDS = True
    result = only_result(run_of(workspace_of(tmp_path, SCRIPT), "scripted"))
    assert result.verdict == RunResult.Verdict.PASS
    [grader] = result.graders
    if on_agentv_5():  # a script says `pass`, `score` and `reason` to AgentV 5
        assert (grader["type"], grader["reasoning"]) == ("script", "ran")
    else:
        assert grader["assertions"][0]["text"] == "ran"


@pytest.mark.parametrize("role", [Membership.Role.VIEWER, Membership.Role.REVIEWER])
def test_a_viewer_or_reviewer_cannot_run(tmp_path: Path, role: str) -> None:
    workspace = workspace_of(tmp_path, SINGLE_TURN)
    refusal = "Only owners and editors of the workspace may run tests."
    assert run_refusal(access_of(workspace, role)) == refusal
    with pytest.raises(RunRefused, match=refusal):
        run_of(workspace, "add", role=role)


def test_runs_are_refused_while_turned_off(tmp_path: Path, settings: Any) -> None:
    settings.AGENTV_RUNS_ENABLED = False
    workspace = workspace_of(tmp_path, SINGLE_TURN)
    with pytest.raises(RunRefused, match="AGENTV_RUNS_ENABLED"):
        run_of(workspace, "add")


def test_a_missing_agentv_is_the_refusal(tmp_path: Path, settings: Any) -> None:
    from evals_app.services.runs.agentv_cli import forget_agentv_status

    settings.AGENTV_COMMAND = "/nowhere/agentv"
    forget_agentv_status()
    try:
        with pytest.raises(RunRefused, match="AgentV is not installed"):
            run_of(workspace_of(tmp_path, SINGLE_TURN), "add")
    finally:
        forget_agentv_status()


def test_a_target_the_operator_did_not_offer_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RunRefused, match="No target is named 'openai'"):
        run_of(workspace_of(tmp_path, SINGLE_TURN), "add", target="openai")


def test_the_unsaved_draft_is_what_runs(tmp_path: Path) -> None:
    workspace = workspace_of(tmp_path, SINGLE_TURN)
    case = case_named(workspace, "add")
    draft = {**case.document, "assertions": [{"type": "contains", "value": "fixed answer"}]}
    run = start_run(
        access_of(workspace, "owner"), user("olga"), case.suite, [(case, draft)], "mock"
    )
    run.job.refresh_from_db()
    result = only_result(run)
    assert result.verdict == RunResult.Verdict.PASS
    assert result.revision_number is None  # a draft, not a saved revision
    case.refresh_from_db()
    assert case.document["assertions"][0]["type"] == "contains"
    assert case.document["assertions"][1]["value"] == "5"  # the stored case did not change


def test_a_time_out_stops_agentv_and_stores_nothing(
    tmp_path: Path, judge_targets: JudgeServer, settings: Any
) -> None:
    settings.AGENTV_RUN_TIME_LIMIT_SECONDS = 2
    judge_targets.delay = 30
    run = run_of(workspace_of(tmp_path, RUBRIC), "rubric", target="graded-mock")
    assert run.job.state == Job.State.FAILED
    assert run.job.error == "AgentV did not finish within the time limit (2 s) and was stopped."
    assert not run.results.exists()


def test_too_much_output_stops_agentv(tmp_path: Path, settings: Any) -> None:
    settings.AGENTV_RUN_OUTPUT_LIMIT_BYTES = 10
    run = run_of(workspace_of(tmp_path, SINGLE_TURN), "add")
    assert run.job.state == Job.State.FAILED
    assert "more than the output limit (10 bytes)" in run.job.error
    assert not run.results.exists()


def test_a_test_agentv_skips_shows_its_reason_verbatim(tmp_path: Path) -> None:
    skipped = "  - id: no-input\n    criteria: Says four.\n"
    result = only_result(run_of(workspace_of(tmp_path, skipped), "no-input"))
    assert result.verdict == RunResult.Verdict.SKIPPED
    assert result.error.startswith("Skipping incomplete test: no-input. Missing required fields")


def test_an_agentv_removed_after_its_version_was_asked_is_the_same_clear_error(
    tmp_path: Path, settings: Any
) -> None:
    from evals_app.services.runs.agentv_cli import agentv_status, forget_agentv_status

    agentv = tmp_path / "agentv"
    agentv.write_text(f'#!/bin/sh\nexec {settings.AGENTV_COMMAND} "$@"\n', encoding="utf-8")
    agentv.chmod(0o755)
    settings.AGENTV_COMMAND = str(agentv)
    forget_agentv_status()
    try:
        assert agentv_status().usable  # asked once, as a worker does when it starts
        workspace = workspace_of(tmp_path / "workspace", SINGLE_TURN)
        agentv.unlink()
        run = run_of(workspace, "add")
        assert run.job.state == Job.State.FAILED
        assert run.job.error == (
            f"AgentV is not installed: {agentv} was not found (run `make setup`, or set "
            "AGENTV_COMMAND)."
        )
    finally:
        forget_agentv_status()

"""Every suite runs: a spelling the configured AgentV reads, made in memory from the suite's
content, the file in the repository unchanged; and each generation's adapter (docs/runs.md,
"AgentV generations", "When AgentV cannot read a suite's spelling")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from evals_app.models import Job, Run, RunResult, Suite, Workspace
from evals_app.services.runs.generations import Agentv4, Agentv5, generation_of
from evals_app.services.runs.generations.agentv5 import provider
from evals_app.services.runs.generations.tests_with_input import downgraded_file
from evals_app.services.runs.spellings import run_spelling
from evals_app.services.runs.starting import start_run
from tests.factories import imported_workspace, write_files

from .conftest import access_of, agentv_label, editor_of, on_agentv_5

TODAY = """\
prompts: ["{{ input }}"]
default_test:
  vars:
    product: Lumen
tests:
  - id: opening-hours-{{ language }}
    vars:
      language: [English, French]
      input: Is {{ product }} support open at the weekend? Answer in {{ language }}.
    assert:
      - type: contains
        value: fixed answer
      - type: skill-used
        value: opening-hours
"""
EVALCASES = """\
$schema: agentv-eval-v2
evalcases:
  - id: older
    outcome: Answers the question.
    input_messages:
      - role: user
        content: What is 2 + 2?
    execution:
      evaluators:
        - name: says-fixed
          type: contains
          value: fixed answer
"""


def workspace_with(folder: Path, text: str, path: str = "evals/suite.eval.yaml") -> Workspace:
    write_files(folder, {path: text})
    return imported_workspace(folder)


def run_all(workspace: Workspace) -> Run:
    suite = workspace.suites.get()
    cases = [(case, case.document) for case in suite.cases.order_by("position")]
    run = start_run(access_of(workspace, "editor"), editor_of(workspace), suite, cases, "mock")
    run.refresh_from_db()
    run.job.refresh_from_db()
    assert run.job.state == Job.State.DONE, run.job.error
    return run


@pytest.mark.django_db
def test_a_list_variable_gives_one_result_per_value_all_of_the_case(tmp_path: Path) -> None:
    workspace = workspace_with(tmp_path, TODAY)
    suite_text = workspace.suites.get().source_text
    run = run_all(workspace)
    results = list(run.results.order_by("test_id"))
    assert [result.test_id for result in results] == [
        "opening-hours-English",
        "opening-hours-French",
    ]
    case = workspace.suites.get().cases.get()
    assert {result.case_id for result in results} == {case.pk}
    assert all(result.graders[0]["verdict"] == "pass" for result in results)
    assert workspace.suites.get().source_text == suite_text  # the suite's file is unchanged


@pytest.mark.django_db
def test_todays_suite_runs_on_agentv_4_as_it_reads_it_and_says_so(tmp_path: Path) -> None:
    run = run_all(workspace_with(tmp_path, TODAY))
    result = run.results.order_by("test_id").first()
    assert result is not None
    if on_agentv_5():  # AgentV 5 reads it as it is, and runs every grader
        assert run.spelling_note == ""
        assert [grader["type"] for grader in result.graders] == ["contains", "skill-used"]
    else:
        assert run.spelling_note == (
            f"Run as {agentv_label()} reads it: `tests` with `input`, one test per prompt and "
            "value. The suite's file is unchanged."
        )
        contains, not_run = result.graders
        assert (contains["type"], contains["verdict"]) == ("contains", "pass")
        assert (not_run["verdict"], not_run["reasoning"]) == (
            "not run",
            f"not run by {agentv_label()}: `skill-used` has no spelling in it",
        )
        assert result.verdict == RunResult.Verdict.PASS  # the rest grade


@pytest.mark.django_db
def test_an_older_suite_runs_graded_with_either_agentv(tmp_path: Path) -> None:
    run = run_all(workspace_with(tmp_path, EVALCASES, "evals/older.yaml"))
    [result] = run.results.all()
    assert result.verdict != RunResult.Verdict.SKIPPED, result.error
    says_fixed = next(grader for grader in result.graders if grader["type"] == "contains")
    assert (says_fixed["verdict"], says_fixed["score"]) == ("pass", 1.0)
    assert run.spelling_note.startswith(f"Run as {agentv_label()} reads it: ")


@pytest.mark.django_db
def test_agentvs_warnings_and_exit_status_are_kept_with_the_run(tmp_path: Path) -> None:
    run = run_all(workspace_with(tmp_path, EVALCASES, "evals/older.yaml"))
    assert run.agentv_exit_code is not None
    if not on_agentv_5():
        assert "Warning: 'evalcases' is deprecated. Use 'tests' instead." in run.agentv_warnings


@pytest.mark.django_db
def test_a_skipped_test_is_counted_apart_never_as_a_failure(tmp_path: Path) -> None:
    tests = "tests:\n  - id: graded\n    input: Hi\n    criteria: x\n    assertions:\n"
    tests += (
        "      - type: contains\n        value: fixed answer\n  - id: ungraded\n    input: Hi\n"
    )
    run = run_all(workspace_with(tmp_path, tests))
    assert sorted(run.results.values_list("test_id", "verdict")) == [
        ("graded", "pass"),
        ("ungraded", "skipped"),
    ]
    assert run.job.result["summary"] == "1 of 1 tests passed with mock, 1 skipped."


def spelled(generation_version: str, text: str, folder: Path) -> tuple[Any, Suite]:
    workspace = workspace_with(folder, text)
    suite = workspace.suites.get()
    documents = [case.document for case in suite.cases.order_by("position")]
    spelling = run_spelling(
        generation_of(generation_version), suite, documents, workspace.file_texts()
    )
    return spelling, suite


@pytest.mark.django_db
def test_todays_file_for_agentv_4_is_tests_with_input_one_per_value(tmp_path: Path) -> None:
    spelling, _ = spelled("4.42.4", TODAY, tmp_path)
    assert yaml.safe_load(spelling.text) == {
        "tests": [
            {
                "id": f"opening-hours-{language}",
                "input": f"Is Lumen support open at the weekend? Answer in {language}.",
                "assertions": [{"type": "contains", "value": "fixed answer"}],
            }
            for language in ("English", "French")
        ]
    }
    assert spelling.test_ids == [["opening-hours-English", "opening-hours-French"]]


@pytest.mark.django_db
def test_an_older_file_for_agentv_5_is_as_upgrade_writes_it(tmp_path: Path) -> None:
    spelling, _ = spelled("5.3.1", EVALCASES, tmp_path)
    written = yaml.safe_load(spelling.text)
    assert written["prompts"] == ["{{ input }}"]
    [test] = written["tests"]
    assert test["vars"]["input"] == [{"role": "user", "content": "What is 2 + 2?"}]
    assert test["criteria"] == "Answers the question."
    assert {"name": "says-fixed", "type": "contains", "value": "fixed answer"} in test["assert"]
    assert spelling.note.startswith("Run as AgentV 5.3.1 reads it: today's format")


@pytest.mark.parametrize(
    ("today", "agentv_4"),
    [
        ("Says four", "Says four"),
        ({"type": "contains", "value": "4"}, {"type": "contains", "value": "4"}),
        (
            {"type": "not-contains", "value": "5"},
            {"type": "contains", "value": "5", "negate": True},
        ),
        ({"type": "llm-rubric", "value": "Says four"}, "Says four"),
        (
            {"type": "llm-rubric", "prompt": "file://judges/four.md"},
            {"type": "llm-grader", "prompt": "judges/four.md"},
        ),
        (
            {"type": "script", "command": ["python3", "check.py"]},
            {"type": "code-grader", "command": ["python3", "check.py"]},
        ),
        (
            {"type": "assert-set", "assert": [{"type": "equals", "value": "4"}]},
            {"type": "composite", "assertions": [{"type": "equals", "value": "4"}]},
        ),
        ({"type": "javascript", "value": "output.length > 0"}, None),
    ],
)
def test_each_assert_in_agentv_4s_names(today: Any, agentv_4: Any) -> None:
    down = downgraded_file(
        {"tests": [None]}, [{"id": "t", "vars": {"input": "Q"}, "assert": [today]}], None, "4"
    )
    [test] = down.tests
    assert test["assertions"] == ([] if agentv_4 is None else [agentv_4])
    assert bool(down.not_run[0]) == (agentv_4 is None)


def test_the_generation_is_chosen_by_the_version() -> None:
    assert generation_of("4.42.4") == Agentv4("4.42.4")
    assert generation_of("5.3.1-next.1") == Agentv5("5.3.1-next.1")


def test_each_generation_is_called_its_own_way() -> None:
    paths = (Path("suite.yaml"), Path("t.yaml"), "gpt", "judge", Path("out"))
    assert Agentv4("4.42.4").command(["agentv"], *paths) == [
        *("agentv", "eval", "run", "suite.yaml", "--targets", "t.yaml"),
        *("--target", "gpt", "--output", "out"),
    ]
    assert Agentv5("5.3.1").command(["agentv"], *paths) == [
        *("agentv", "eval", "run", "suite.yaml", "--providers", "t.yaml", "--provider", "gpt"),
        *("--grader-provider", "judge", "--output", "out"),
    ]
    assert Agentv4("4.42.4").index(Path("out")) == Path("out/index.jsonl")
    assert Agentv5("5.3.1").index(Path("out")) == Path("out/.internal/index.jsonl")


def test_a_target_of_agentv_4_becomes_a_provider_of_agentv_5() -> None:
    target = {
        "name": "gpt",
        "provider": "openai",
        "endpoint": "https://api.openai.com/v1",
        "api_key": "${{ OPENAI_API_KEY }}",
        "grader_target": "judge",
    }
    assert provider(target) == {
        "id": "openai",
        "label": "gpt",
        "config": {
            "endpoint": "https://api.openai.com/v1",
            "api_key": "{{ env.OPENAI_API_KEY }}",
            "grader_target": "judge",
        },
    }


@pytest.mark.parametrize(
    ("score", "verdict"),
    [
        ({"pass": True, "score": 0.1}, "pass"),
        ({"pass": False, "score": 1}, "fail"),
        ({"score": 0.8}, "pass"),  # AgentV 5's DEFAULT_THRESHOLD
        ({"score": 0.79}, "fail"),
    ],
)
def test_agentv_5s_grader_verdict_is_its_pass_else_score_and_threshold(
    score: dict[str, Any], verdict: str
) -> None:
    assert Agentv5("5.3.1").grader_verdict(score) == verdict

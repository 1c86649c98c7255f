"""The tests today's AgentV builds from `scenarios:` (docs/formats.md, "Scenarios"); the
examples are AgentV's own (its loader's tests of promptfoo scenarios)."""

from __future__ import annotations

from typing import Any

import pytest

from evals_app.eval_files.errors import EvalFileError
from evals_app.eval_files.reading import read_eval_file
from evals_app.eval_files.scenarios import scenario_tests

CONFIG_HIGH = {"vars": {"severity": "high"}}
CRITICAL = {"vars": {"diff": "critical fix"}, "assert": [{"type": "contains", "value": "x"}]}


@pytest.mark.parametrize(
    ("scenarios", "tests"),
    [
        pytest.param(
            [{"config": [CONFIG_HIGH], "tests": [CRITICAL]}],
            [
                {
                    "vars": {"severity": "high", "diff": "critical fix"},
                    "assert": [{"type": "contains", "value": "x"}],
                    "id": "scenario-1-1-1",
                }
            ],
            id="ids from positions, vars merged",
        ),
        pytest.param(
            [{"config": [{"id": "cfg"}], "tests": [{"a": 1}, {"a": 2}]}],
            [{"id": "cfg__scenario_test_1", "a": 1}, {"id": "cfg__scenario_test_2", "a": 2}],
            id="ids from the config row, numbered",
        ),
        pytest.param(
            [{"config": [{"id": "cfg"}], "tests": [{"a": 1}]}],
            [{"id": "cfg", "a": 1}],
            id="one test takes the config's id",
        ),
        pytest.param(
            [{"config": [{"id": "cfg", "k": "config"}], "tests": [{"id": "own", "k": "test"}]}],
            [{"id": "own", "k": "test"}],
            id="the test row wins",
        ),
        pytest.param(
            [{"config": [{"assert": "A"}], "tests": [{"assert": ["B"]}]}],
            [{"assert": ["A", "B"], "id": "scenario-1-1-1"}],
            id="asserts joined, the config's first",
        ),
        pytest.param(
            [{"config": [{"x": 1}, {"x": 2}], "tests": [{"t": 1}, {"t": 2}]}, "file://more.yaml"],
            [
                {"x": 1, "t": 1, "id": "scenario-1-1-1"},
                {"x": 1, "t": 2, "id": "scenario-1-1-2"},
                {"x": 2, "t": 1, "id": "scenario-1-2-1"},
                {"x": 2, "t": 2, "id": "scenario-1-2-2"},
            ],
            id="every config row with every test row",
        ),
    ],
)
def test_scenarios_stand_for_the_tests_agentv_builds(scenarios: Any, tests: Any) -> None:
    assert scenario_tests(scenarios)[0] == tests


def test_a_file_of_scenarios_is_noted_and_kept_as_written() -> None:
    notes = scenario_tests(["file://more.yaml"])[1]

    assert [(note.field, note.message) for note in notes] == [
        (
            "scenarios[0]",
            "file://more.yaml: a file of scenarios is kept as written; its tests are not imported",
        )
    ]


@pytest.mark.parametrize(
    ("scenarios", "field", "message"),
    [
        pytest.param({"config": []}, "scenarios", "must be a list of scenarios", id="not a list"),
        pytest.param([{"tests": []}], "scenarios[0].config", "must be a list", id="no config"),
        pytest.param([{"config": []}], "scenarios[0].tests", "must be a list", id="no tests"),
        pytest.param(
            [{"config": [1], "tests": []}], "scenarios[0].config[0]", "must be a mapping", id="row"
        ),
        pytest.param(
            [{"config": [{}], "tests": ["x"]}], "scenarios[0].tests[0]", "must be a mapping", id="t"
        ),
    ],
)
def test_what_agentv_refuses_in_scenarios_is_refused_naming_the_field(
    scenarios: Any, field: str, message: str
) -> None:
    with pytest.raises(EvalFileError) as raised:
        scenario_tests(scenarios)

    assert raised.value.field == field and message in raised.value.message


def test_a_file_with_tests_and_scenarios_reads_its_own_tests_first() -> None:
    contents = read_eval_file(
        "prompts:\n  - 'Review {{ diff }}'\n"
        "tests:\n  - id: canonical\n    vars: {diff: ordinary change}\n"
        "scenarios:\n  - config:\n      - vars: {severity: high}\n"
        "    tests:\n      - vars: {diff: critical fix}\n"
    )

    assert (contents.format, contents.cases_key) == ("scenarios", "tests")
    assert [parts.case_id for parts in contents.parts] == ["canonical", "scenario-1-1-1"]


def test_a_bad_scenario_is_refused_at_its_line() -> None:
    with pytest.raises(EvalFileError) as raised:
        read_eval_file("prompts: [x]\nscenarios:\n  - config: {}\n    tests: []\n")

    assert (raised.value.line, raised.value.field) == (3, "scenarios[0].config")

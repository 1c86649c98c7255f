"""The tests today's AgentV builds from an eval file's `scenarios:` (docs/formats.md,
"Scenarios").

Each scenario pairs a list of `config` rows with a list of `tests` rows; every config row with
every test row is one test: the two rows merged (the test's keys win; `vars`, `metadata`,
`options` and `run` merged key by key; `assert` lists joined, the config's first), with an id
from the test, else from the config row, else from the positions, as AgentV's
`lowerScenariosIntoTests` builds them.
"""

from __future__ import annotations

from typing import Any

from .errors import EvalFileError

_MERGED_FIELDS = ("vars", "metadata", "options", "run")


def scenario_tests(scenarios: Any) -> tuple[list[dict[Any, Any]], list[EvalFileError]]:
    """The tests `scenarios` (the value of `scenarios:`) stands for, in AgentV's order, and
    notes on what was not read: a scenario given as a file reference. Raises EvalFileError
    (naming the field) for what AgentV refuses."""
    if not isinstance(scenarios, list):
        raise EvalFileError("must be a list of scenarios", field="scenarios")
    tests: list[dict[Any, Any]] = []
    notes: list[EvalFileError] = []
    for s_index, scenario in enumerate(scenarios):
        where = f"scenarios[{s_index}]"
        if isinstance(scenario, str):
            notes.append(
                EvalFileError(
                    f"{scenario}: a file of scenarios is kept as written; its tests are not "
                    "imported",
                    field=where,
                )
            )
            continue
        if not isinstance(scenario, dict):
            raise EvalFileError("a scenario must be a mapping", field=where)
        config, rows = scenario.get("config"), scenario.get("tests")
        if not isinstance(config, list):
            raise EvalFileError("must be a list of config rows", field=f"{where}.config")
        if not isinstance(rows, list):
            raise EvalFileError("must be a list of test rows", field=f"{where}.tests")
        for c_index, config_row in enumerate(config):
            if not isinstance(config_row, dict):
                raise EvalFileError(
                    "a config row must be a mapping", field=f"{where}.config[{c_index}]"
                )
            for t_index, test_row in enumerate(rows):
                if not isinstance(test_row, dict):
                    raise EvalFileError(
                        "a test row must be a mapping", field=f"{where}.tests[{t_index}]"
                    )
                position = (s_index, c_index, t_index, len(rows))
                tests.append(_merged_row(config_row, test_row, position))
    return tests, notes


def _merged_row(
    config: dict[Any, Any], test: dict[Any, Any], position: tuple[int, int, int, int]
) -> dict[Any, Any]:
    s_index, c_index, t_index, count = position
    row: dict[Any, Any] = {**config, **test}
    for name in _MERGED_FIELDS:
        both = {
            **(config[name] if isinstance(config.get(name), dict) else {}),
            **(test[name] if isinstance(test.get(name), dict) else {}),
        }
        if both:
            row[name] = both
    asserts = [*_as_list(config.get("assert")), *_as_list(test.get("assert"))]
    if asserts:
        row["assert"] = asserts
    if _text(test.get("id")):
        row["id"] = test["id"]
    elif _text(config.get("id")):
        row["id"] = config["id"] + (f"__scenario_test_{t_index + 1}" if count > 1 else "")
    else:
        row["id"] = f"scenario-{s_index + 1}-{c_index + 1}-{t_index + 1}"
    return row


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())

"""Today's suite (`prompts` × `vars`, `assert`) as AgentV 4 reads it: `tests` with `input`, one
test per test AgentV 5 would expand, graders in the names AgentV 4 knows (docs/runs.md, "When
AgentV cannot read a suite's spelling"). Pure: it maps documents, nothing else."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ....formatting.profile_2026.expansion import Prompt, expand_test

# AgentV 4's grader kinds (its GRADER_KIND_VALUES, 4.42.4) that today's files spell the same.
SAME_KINDS = frozenset(
    {
        "contains",
        "contains-any",
        "contains-all",
        "icontains",
        "icontains-any",
        "icontains-all",
        "starts-with",
        "ends-with",
        "regex",
        "is-json",
        "equals",
        "latency",
        "cost",
        "token-usage",
        "execution-metrics",
        "field-accuracy",
    }
)
JUDGE_KINDS = ("llm-rubric", "agent-rubric")
FILE_PROTOCOL = "file://"
# What a test of today keeps as it is in AgentV 4 (a conversation's keys and the judge's).
KEPT_TEST_KEYS = ("criteria", "mode", "aggregation", "on_turn_failure", "window_size", "metadata")


@dataclass
class Downgraded:
    """The file AgentV 4 runs: its header and tests, which tests each case became, and each
    case's graders that AgentV 4 has no spelling of."""

    header: dict[Any, Any]
    tests: list[dict[Any, Any]] = field(default_factory=list)
    test_ids: list[list[str]] = field(default_factory=list)
    not_run: list[list[str]] = field(default_factory=list)


def downgraded_file(
    header: Mapping[Any, Any],
    documents: Iterable[dict[Any, Any]],
    prompts: list[Prompt] | None,
    label: str,
) -> Downgraded:
    """`documents` of a today's file with `header` (its `prompts` read as `prompts`) as the
    `tests` AgentV 4 reads; `label` ("AgentV 4.42.4") names it in what is not run."""
    suite_header = dict(header)
    downgraded = Downgraded(_header(suite_header, label))
    for document in documents:
        ids: list[str] = []
        dropped: list[str] = []
        for expanded in expand_test(document, suite_header, prompts):
            test = _test(expanded.document, label, dropped)
            downgraded.tests.append(test)
            ids.append(str(test["id"]))
        downgraded.test_ids.append(ids)
        downgraded.not_run.append(list(dict.fromkeys(dropped)))
    return downgraded


def _header(header: dict[Any, Any], label: str) -> dict[Any, Any]:
    kept: dict[Any, Any] = {
        key: header[key] for key in ("name", "description") if isinstance(header.get(key), str)
    }
    default_test = header.get("default_test")
    defaults = default_test.get("assert") if isinstance(default_test, dict) else None
    if isinstance(defaults, list):
        # AgentV 4 adds the file's `assertions` to each test's, as today's adds default_test's.
        kept["assertions"] = _assertions(defaults, label, [])
    kept["tests"] = None  # where the tests go
    return kept


def _test(document: dict[Any, Any], label: str, dropped: list[str]) -> dict[Any, Any]:
    found = document.get("vars")
    variables: dict[Any, Any] = found if isinstance(found, dict) else {}
    test: dict[Any, Any] = {"id": document.get("id")}
    if "input" in document:
        test["input"] = document["input"]
    for key in KEPT_TEST_KEYS:
        if key in document:
            test[key] = document[key]
    expected = document.get("expected_output", variables.get("expected_output"))
    if expected is not None:
        test["expected_output"] = expected
    asserts = document.get("assert")
    if isinstance(asserts, list):
        test["assertions"] = _assertions(asserts, label, dropped)
    if isinstance(document.get("threshold"), int | float):
        test["execution"] = {"threshold": document["threshold"]}
    if isinstance(document.get("turns"), list):
        test["turns"] = [_turn(turn, label, dropped) for turn in document["turns"]]
    return test


def _turn(turn: Any, label: str, dropped: list[str]) -> Any:
    if not isinstance(turn, dict):
        return turn
    converted = {key: value for key, value in turn.items() if key != "assert"}
    if isinstance(turn.get("assert"), list):
        converted["assertions"] = _assertions(turn["assert"], label, dropped)
    return converted


def _assertions(entries: list[Any], label: str, dropped: list[str]) -> list[Any]:
    converted = []
    for entry in entries:
        spelled = _assertion(entry)
        if spelled is None:
            kind = entry.get("type") if isinstance(entry, dict) else entry
            dropped.append(f"not run by {label}: `{kind}` has no spelling in it")
        else:
            converted.append(spelled)
    return converted


def _assertion(entry: Any) -> Any:
    """One assert in AgentV 4's spelling; None when AgentV 4 has none."""
    if isinstance(entry, str):
        return entry  # a rubric item in both
    if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
        return None
    kind: str = entry["type"]
    rest = {key: value for key, value in entry.items() if key != "type"}
    if kind.startswith("not-") and kind[4:] in SAME_KINDS:
        return {"type": kind[4:], **rest, "negate": True}
    if kind in SAME_KINDS:
        return {"type": kind, **rest}
    if kind in JUDGE_KINDS:
        prompt = rest.pop("prompt", None)
        value = rest.pop("value", None)
        if prompt is None and isinstance(value, str) and not rest:
            return value
        grader: dict[Any, Any] = {"type": "llm-grader", **rest}
        if isinstance(prompt, str):
            grader["prompt"] = prompt.removeprefix(FILE_PROTOCOL)
        if isinstance(value, str):
            grader["rubrics"] = [{"id": "rubric-1", "outcome": value}]
        return grader
    if kind == "script":
        return {"type": "code-grader", **rest}
    if kind == "assert-set" and isinstance(rest.get("assert"), list):
        members = [_assertion(member) for member in rest.pop("assert")]
        if any(member is None or isinstance(member, str) for member in members):
            return None
        return {"type": "composite", **rest, "assertions": members}
    return None

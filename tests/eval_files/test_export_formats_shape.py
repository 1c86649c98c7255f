"""Every exported promptfoo config is YAML of promptfoo's config shape (`promptfoo_schema.py`)
and every chat JSONL line one `{"messages": [...]}` of OpenAI's chat roles, for the project's
own eval files of every period and for random suites; and no assert is lost on the way: each is
a promptfoo assert or kept in `metadata.agentv_unsupported` (docs/exports.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from evals_app.eval_files.errors import EvalFileError
from evals_app.eval_files.export_formats import EXPORT_FORMATS, portable_suite
from evals_app.eval_files.reading import read_eval_file
from evals_app.eval_files.upgrade import is_older_file
from evals_app.formatting.workspace_files import DirectoryFiles, MappingFiles
from tests.eval_files.promptfoo_schema import config_problems
from tests.strategies import period_eval_files, today_tests

REPOSITORY = Path(__file__).resolve().parents[2]
ROOTS = [
    REPOSITORY / "examples",
    REPOSITORY / "tests" / "fixtures" / "today",
    REPOSITORY / "tests" / "fixtures" / "periods",
]
CHAT_ROLES = {"system", "user", "assistant", "tool"}


def _eval_files() -> list[tuple[Path, str]]:
    found = []
    for root in ROOTS:
        for path in sorted(root.rglob("*.yaml")):
            try:
                contents = read_eval_file(path.read_bytes())
            except EvalFileError:
                continue
            if contents.cases_key is not None and contents.cases:
                found.append((root, path.relative_to(root).as_posix()))
    return found


EVAL_FILES = _eval_files()


def _export(
    header: dict[Any, Any], cases: list[dict[Any, Any]], cases_key: str | None, files: Any
) -> dict[str, tuple[str, list[str], int]]:
    """Each format's text, warnings and number of tests."""
    results = {}
    for name, chosen in EXPORT_FORMATS.items():
        suite = portable_suite(
            "evals/suite.eval.yaml",
            header,
            cases,
            older=is_older_file(header, cases_key),
            cases_key=cases_key,
            files=files,
        )
        results[name] = (chosen.write(suite, files), suite.warnings.lines, len(suite.tests))
    return results


def _check(results: dict[str, tuple[str, list[str], int]]) -> None:
    text, _, tests = results["promptfoo"]
    config = yaml.safe_load(text)
    assert config_problems(config) == []
    assert config["prompts"] == ["{{ messages | dump }}"]
    assert len(config["tests"]) >= tests
    jsonl, _, lines = results["chat-jsonl"]
    parsed = [json.loads(line) for line in jsonl.splitlines()]
    assert len(parsed) == lines == tests
    for line in parsed:
        assert list(line) == ["messages"]
        assert all(message["role"] in CHAT_ROLES for message in line["messages"])


def test_the_projects_eval_files_were_found() -> None:
    assert len(EVAL_FILES) >= 5


@pytest.mark.parametrize(("root", "path"), EVAL_FILES, ids=[path for _, path in EVAL_FILES])
def test_each_eval_file_of_the_project_exports_in_both_shapes(root: Path, path: str) -> None:
    contents = read_eval_file((root / path).read_bytes())
    _check(_export(contents.header, contents.cases, contents.cases_key, DirectoryFiles(root)))


@given(tests=st.lists(today_tests(), min_size=1, max_size=3))
def test_random_todays_suites_export_in_both_shapes(tests: list[dict[str, Any]]) -> None:
    header = {"prompts": ["{{ input }}"], "tests": [None] * len(tests)}
    _check(_export(header, tests, "tests", MappingFiles({})))


@given(document=period_eval_files())
def test_random_older_suites_export_in_both_shapes(document: dict[str, Any]) -> None:
    contents = read_eval_file(yaml.safe_dump(document))
    _check(_export(contents.header, contents.cases, contents.cases_key, MappingFiles({})))


@given(tests=st.lists(today_tests(), min_size=1, max_size=3))
def test_no_assert_is_lost(tests: list[dict[str, Any]]) -> None:
    header = {"prompts": ["{{ input }}"], "tests": [None] * len(tests)}
    files = MappingFiles({})
    suite = portable_suite("e.yaml", header, tests, older=False, cases_key="tests", files=files)
    config = yaml.safe_load(EXPORT_FORMATS["promptfoo"].write(suite, files))
    entries = iter(config["tests"])
    for test in suite.tests:
        written = [next(entries) for _ in range(max(1, len(test.turns or [])))]
        last = written[-1]
        kept = last["metadata"].get("agentv_unsupported", {})
        if not test.turns:  # each own assert is a promptfoo assert, kept, or both
            converted = len(last.get("assert", []))
            kept_asserts = sum(key.startswith("assert[") for key in kept)
            assert converted + kept_asserts >= len(test.asserts)
        for field in kept:
            assert any(f"`{field}" in warning for warning in suite.warnings.lines)
    assert next(entries, None) is None

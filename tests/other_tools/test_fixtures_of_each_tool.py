"""Real files of each tool (tests/fixtures/imports/, sources in its README) become as many AgentV
tests as they have rows, and every feature with no AgentV equivalent shows as a warning."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals_app.eval_files.reading import read_eval_file
from evals_app.other_tools.base import SourceFiles
from evals_app.other_tools.conversion import Conversion, convert, suite_header
from evals_app.other_tools.registry import BY_NAME, FORMAT_NAMES
from evals_app.other_tools.suite_text import COMMENT, suite_text

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "imports"


def files_of(folder: str) -> SourceFiles:
    root = FIXTURES / folder
    return SourceFiles(
        {
            p.relative_to(root).as_posix(): p.read_text("utf-8")
            for p in root.rglob("*")
            if p.is_file()
        }
    )


def made_by_file(conversion: Conversion) -> dict[str, tuple[str, int]]:
    return {result.path: (result.format, len(result.tests)) for result in conversion.files}


@pytest.mark.parametrize(
    ("folder", "expected"),
    [
        pytest.param("chat-jsonl", {"marv.jsonl": ("chat-jsonl", 3)}, id="chat-jsonl"),
        pytest.param("sharegpt", {"glaive_toolcall_en_demo.json": ("sharegpt", 2)}, id="sharegpt"),
        # The registry's three evals read two samples files of three rows each.
        pytest.param(
            "openai-evals",
            {"registry/evals/test-basic.yaml": ("openai-evals", 9)},
            id="openai-evals",
        ),
        pytest.param(
            "inspect",
            {"samples.jsonl": ("inspect", 1), "samples-mcq.jsonl": ("inspect", 1)},
            id="inspect",
        ),
        pytest.param(
            "deepeval",
            {"goldens.json": ("deepeval", 4), "goldens_multi_turn.json": ("deepeval", 1)},
            id="deepeval",
        ),
        pytest.param(
            "promptfoo", {"csv-metadata/promptfooconfig.yaml": ("promptfoo", 3)}, id="promptfoo"
        ),
        pytest.param("langsmith", {"examples.jsonl": ("langsmith", 2)}, id="langsmith"),
        # Three items, the third archived: Langfuse leaves it out of runs (warned).
        pytest.param("langfuse", {"items.json": ("langfuse", 2)}, id="langfuse"),
        pytest.param("braintrust", {"records.jsonl": ("braintrust", 3)}, id="braintrust"),
        pytest.param(
            "openai-evals-api", {"items.jsonl": ("openai-evals-api", 3)}, id="openai-evals-api"
        ),
        # A session makes one test, at its last answered user turn.
        pytest.param(
            "claude-code",
            {"session-01.jsonl": ("claude-code", 1), "simple_session.jsonl": ("claude-code", 1)},
            id="claude-code",
        ),
        pytest.param("codex", {"codex_golden.jsonl": ("codex", 1)}, id="codex"),
    ],
)
def test_each_file_makes_a_test_per_row(folder: str, expected: dict[str, tuple[str, int]]) -> None:
    assert made_by_file(convert(files_of(folder))) == expected


@pytest.mark.parametrize(
    ("folder", "warned"),
    [
        # Every FuzzyMatch sample (three rows), by file, row and field.
        pytest.param(
            "openai-evals",
            [
                f"registry/data/test_fuzzy_match/samples.jsonl: row {n} (line {n}): class"
                for n in (1, 2, 3)
            ],
            id="openai-evals-fuzzy-match",
        ),
        pytest.param("inspect", ["samples.jsonl: row 1 (line 1): sandbox"], id="inspect-sandbox"),
        pytest.param(
            "promptfoo", ["csv-metadata/promptfooconfig.yaml: providers"], id="promptfoo-providers"
        ),
        pytest.param(
            "codex", ["codex_golden.jsonl: row 2 (line 8): line 4: reasoning"], id="codex-reasoning"
        ),
        pytest.param("braintrust", [], id="braintrust-nothing-unsupported"),
    ],
)
def test_every_unsupported_feature_is_a_located_warning(folder: str, warned: list[str]) -> None:
    conversion = convert(files_of(folder))
    shown = [
        str(warning)
        for warning in conversion.all_warnings
        if "imported_unsupported" in str(warning)
    ]
    assert [line.split(": kept in")[0] for line in shown] == warned


def test_unsupported_features_are_kept_in_metadata_with_a_comment_beside_them() -> None:
    conversion = convert(files_of("inspect"))
    text = suite_text(suite_header(conversion), conversion.tests)
    sandboxed = next(test for test in conversion.tests if test["id"] == "samples-1")
    kept = sandboxed["metadata"]["imported_unsupported"]
    assert kept == [
        {
            "field": "sandbox",
            "value": '["docker","compose.yaml"]',
            "reason": "Inspect's sandbox has no AgentV equivalent",
        }
    ]
    comment = COMMENT.format("sandbox")
    assert f"    {comment}\n    imported_unsupported:\n" in text


@pytest.mark.parametrize(
    "folder",
    [
        "chat-jsonl",
        "sharegpt",
        "openai-evals",
        "inspect",
        "deepeval",
        "promptfoo",
        "langsmith",
        "langfuse",
        "braintrust",
        "openai-evals-api",
        "claude-code",
        "codex",
    ],
)
def test_the_written_suite_reads_back_as_its_tests(folder: str) -> None:
    conversion = convert(files_of(folder))
    contents = read_eval_file(suite_text(suite_header(conversion), conversion.tests))
    assert contents.cases == conversion.tests
    assert contents.header["prompts"]


def test_every_format_has_its_source_and_its_name() -> None:
    assert sorted(FORMAT_NAMES) == sorted(BY_NAME)

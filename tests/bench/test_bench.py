"""The benchmark's parts that must be right for its figures to mean anything."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from bench.figures import Figure, at_least, at_most, percentile
from bench.measure_patterns import measure_patterns
from evals_app.eval_files.dialects import cases_key_of
from evals_app.eval_files.discovery import discover
from evals_app.eval_files.reading import read_eval_document
from evals_app.eval_files.yaml_loader import load_yaml
from tests.workload.generate import (
    LONG_CASE_ID,
    LONG_CASE_TURNS,
    TEXT_HEAVY,
    WorkspaceWriter,
    generate_workspace,
    suite_sizes,
)
from tests.workload.generate_periods import (
    NON_EVAL_FILES,
    PERIODS,
    PeriodCases,
    PeriodsWriter,
    eval_file_text,
)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_yaml_reads_back_as_the_data_it_was_written_from(
    seed: int, tmp_path: Path
) -> None:
    writer = WorkspaceWriter(tmp_path, random.Random(seed))
    writer.write_files()

    data, text = writer.suite_text("evals/x.yaml", 40, "support", with_long_case=True)

    loaded = load_yaml(text).data
    assert loaded == data
    read_eval_document(loaded, text)


def test_a_generated_workspace_has_the_long_case_and_its_files(tmp_path: Path) -> None:
    generated = generate_workspace(tmp_path / "ws", cases=30, seed=5)

    first = load_yaml((generated.root / generated.first_suite).read_bytes()).data
    long = next(case for case in first["evalcases"] if case["id"] == LONG_CASE_ID)
    assert len(long["input_messages"]) == LONG_CASE_TURNS
    assert (generated.root / ".agentv/config.yaml").is_file()
    assert generated.yaml_bytes == sum(
        (generated.root / path).stat().st_size for path in generated.suite_paths
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("period", [name for name, _ in PERIODS])
def test_a_text_heavy_file_of_each_period_reads_back_as_the_data_it_was_written_from(
    seed: int, period: str, tmp_path: Path
) -> None:
    words = PeriodsWriter(tmp_path, random.Random(seed))
    cases = PeriodCases(words, ["prompts/a.instructions.md", "src/b.py"], "../")

    data, text = eval_file_text(cases, period, "some-file", 6)

    loaded = load_yaml(text).data
    assert loaded == data
    assert len(read_eval_document(loaded, text).cases) == 6


def test_a_text_heavy_workspace_reads_cleanly_with_every_period_and_skips_other_yaml(
    tmp_path: Path,
) -> None:
    generated = generate_workspace(tmp_path / "ws", cases=60, seed=4, profile=TEXT_HEAVY)

    found = discover(generated.root.resolve())

    assert found.errors == []
    assert sorted(eval_file.path for eval_file in found.eval_files) == sorted(generated.suite_paths)
    assert sum(len(eval_file.contents.cases) for eval_file in found.eval_files) == 60
    skipped = dict(found.skipped)
    assert set(NON_EVAL_FILES) <= skipped.keys()
    assert "duplicate key" in skipped[".github/workflows/release.yml"]
    assert set(generated.periods.values()) == {name for name, _ in PERIODS}
    assert {cases_key_of(eval_file.contents.header) for eval_file in found.eval_files} == {
        "evalcases",
        "eval_cases",
        "cases",
        "tests",
    }
    assert ".agentv/config.yaml" in found.configs
    assert any(path.startswith("projects/") for path in found.configs)


def test_a_text_heavy_workspace_has_long_turns(tmp_path: Path) -> None:
    generated = generate_workspace(tmp_path / "ws", cases=400, seed=2, profile=TEXT_HEAVY)

    texts = [(generated.root / path).read_text() for path in generated.suite_paths]

    assert generated.yaml_bytes / generated.cases > 3000  # bytes per case
    assert any("```" in text for text in texts)
    assert any("score_ranges:\n" in text and "  0: " in text for text in texts)
    assert any("tool_calls:" in text for text in texts)


@pytest.mark.parametrize(
    ("cases", "sizes"),
    [(5, [5]), (1000, [1000]), (1001, [1000, 1]), (10_000, [1000] + [1286] * 5 + [1285] * 2)],
)
def test_the_first_suite_holds_up_to_1000_cases_and_the_rest_are_spread(
    cases: int, sizes: list[int]
) -> None:
    assert suite_sizes(cases) == sizes
    assert sum(suite_sizes(cases)) == cases


def test_a_figure_is_one_json_line_with_its_five_fields() -> None:
    line = Figure("export_vs_parse_floor", 1.234567, "x", at_most(1.5)).line()

    assert json.loads(line) == {
        "name": "export_vs_parse_floor",
        "value": 1.235,
        "unit": "x",
        "target": "<= 1.5",
        "ok": True,
    }


@pytest.mark.parametrize(
    ("value", "target", "ok"),
    [
        (1.5, at_most(1.5), True),
        (1.6, at_most(1.5), False),
        (40, at_least(40), True),
        (39.9, at_least(40), False),
        (7, None, True),
        (math.nan, at_most(10), False),
    ],
)
def test_a_figure_is_ok_when_it_meets_its_target(
    value: float, target: str | None, ok: bool
) -> None:
    figure = Figure("x", value, "ms", target)

    assert figure.ok is ok
    assert json.loads(figure.line())["ok"] is ok


def test_percentiles_take_the_nearest_rank() -> None:
    values = list(range(1, 101))

    assert percentile(values, 0.5) == 50
    assert percentile(values, 0.99) == 99
    assert math.isnan(percentile([], 0.5))


def test_stacked_double_stars_are_measured_against_a_one_millisecond_target(
    capsys: pytest.CaptureFixture[str],
) -> None:
    figure, *_ = measure_patterns(repeats=5, pages=1, files=5)

    assert (figure.name, figure.unit, figure.target) == (
        "guideline_match_stacked_double_stars",
        "ms",
        at_most(1),
    )
    assert 0 < figure.value < 1000
    assert json.loads(capsys.readouterr().out.splitlines()[0]) == json.loads(figure.line())


def test_a_page_of_the_worst_accepted_patterns_is_measured_against_fifty_milliseconds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, first, page = measure_patterns(repeats=1, pages=1, files=5)

    assert [(figure.name, figure.unit, figure.target) for figure in (first, page)] == [
        ("guideline_first_page_worst_patterns", "ms", at_most(500)),
        ("guideline_page_worst_patterns", "ms", at_most(50)),
    ]
    assert [json.loads(line) for line in capsys.readouterr().out.splitlines()[1:]] == [
        json.loads(first.line()),
        json.loads(page.line()),
    ]

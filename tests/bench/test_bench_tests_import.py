"""The benchmark of importing other tools' tests: its rows are chat JSONL the import reads, and
it reports the import's time and its ratio to json.loads against the target."""

from __future__ import annotations

import json

from bench.measure_tests_import import TARGET_RATIO, chat_rows, measure_tests_import
from evals_app.other_tools.base import SourceFiles
from evals_app.other_tools.conversion import convert


def test_the_generated_rows_are_chat_lines_each_a_test() -> None:
    text = chat_rows(20)
    assert all("messages" in json.loads(line) for line in text.splitlines())
    assert len(convert(SourceFiles({"rows.jsonl": text})).tests) == 20


def test_the_figures_are_the_time_and_the_ratio_with_its_target() -> None:
    time, ratio = measure_tests_import(30)
    assert (time.name, time.unit, time.target) == ("tests_import_30_chat_rows", "s", None)
    assert (ratio.name, ratio.unit) == ("tests_import_over_json_loads", "x")
    assert ratio.target == f"<= {TARGET_RATIO}"
    assert ratio.value > 1  # the import parses the same lines, and more

"""What lint and token counts cost (docs/performance.md, "Lint and token counts").

- `preview_lint_and_tokens_20_turns`: what the preview adds to a 20-turn case (the first 20
  turns of the workspace's long conversation): taking it apart for the linter, every one-case
  rule, and the token count of each turn, of its question and of its judge prompt (o200k_base,
  the encodings loaded before: once per process). The median of many runs.
- `lint_suite_vs_parse_floor`: every rule over all the workspace's cases as one suite (the
  near-duplicate comparison of their questions included), against PyYAML's C loader merely
  parsing the same files. The questions are formatted beforehand: formatting is measured by
  the export figures, the linter here.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import replace
from typing import Any

from evals_app.eval_files.case_parts import case_input, file_evaluators, split_case
from evals_app.eval_files.reading import read_eval_file
from evals_app.formatting.lint import lint_case, lint_suite
from evals_app.formatting.lint.text import message_texts
from evals_app.formatting.profile_2025.formatter import format_case
from evals_app.formatting.token_counts import count_tokens
from evals_app.formatting.workspace_files import DirectoryFiles
from tests.workload.generate import GeneratedWorkspace

from .figures import Figure, at_most, progress, report
from .measure_files import parse_floor

PREVIEW_TURNS = 20
PREVIEW_MILLISECONDS = 5
PREVIEW_RUNS = 200
SUITE_RATIO = 1.0


def measure_lint(workspace: GeneratedWorkspace) -> list[Figure]:
    """Both figures for `workspace` (one of short values, of the 2025 profile)."""
    # Imported once Django is set up (the profiles read the models).
    from evals_app.services.profiles import profile_for_file
    from evals_app.services.profiles.linting import lint_subject

    files = DirectoryFiles(workspace.root)
    read = [
        (path, read_eval_file((workspace.root / path).read_text(encoding="utf-8")))
        for path in workspace.suite_paths
    ]
    progress(f"lint: formatting the questions of {workspace.cases} cases")
    subjects = []
    long_case: tuple[str, dict[Any, Any], dict[Any, Any]] | None = None
    for path, contents in read:
        profile = profile_for_file(contents.cases_key)
        evaluators = file_evaluators(contents.header)
        for document, parts in zip(contents.cases, contents.parts, strict=True):
            question = format_case(
                case_input(parts, evaluators), eval_path=path, files=files
            ).question
            subject = lint_subject(profile, document, contents.header, eval_path=path, files=files)
            if subject is not None:
                subjects.append(replace(subject, question=question))
            if parts.case_id == workspace.long_case_id:
                long_case = (path, document, contents.header)
    floor = parse_floor(workspace)
    start = time.perf_counter()
    lint_suite(subjects)
    linted = time.perf_counter() - start
    assert long_case is not None, "the generated workspace has its long conversation"
    preview = _preview_milliseconds(*long_case, files)
    return [
        report(
            Figure("preview_lint_and_tokens_20_turns", preview, "ms", at_most(PREVIEW_MILLISECONDS))
        ),
        report(Figure("lint_suite_seconds", linted, "s")),
        report(Figure("lint_suite_vs_parse_floor", linted / floor, "x", at_most(SUITE_RATIO))),
    ]


def _preview_milliseconds(
    path: str, document: dict[Any, Any], header: dict[Any, Any], files: DirectoryFiles
) -> float:
    """The median time of the preview's lint and token counts of the 20-turn case."""
    from evals_app.services.profiles import profile_for_file
    from evals_app.services.profiles.linting import lint_subject

    case = {**document, "input_messages": document["input_messages"][:PREVIEW_TURNS]}
    profile = profile_for_file("evalcases")
    subject = lint_subject(profile, case, header, eval_path=path, files=files)
    assert subject is not None
    formatted = format_case(
        case_input(split_case(case), file_evaluators(header)), eval_path=path, files=files
    )
    texts = (formatted.question, formatted.guidelines, formatted.evaluator_prompt())
    count_tokens("warm up")  # the encodings load once per process, not per preview
    times = []
    for _ in range(PREVIEW_RUNS):
        start = time.perf_counter()
        again = lint_subject(profile, case, header, eval_path=path, files=files)
        assert again is not None
        lint_case(again)
        for message in (*again.input_messages, *again.expected_messages):
            count_tokens("\n".join(message_texts(message)))
        for text in texts:
            count_tokens(text)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000

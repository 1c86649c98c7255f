"""The targets file `make run` gives a local setup: the `mock` answers every question, and its
judge, another mock, grades every answer as meeting the criteria, so the examples grade with no
model and no key (docs/runs.md, "Targets").

The answer holds no digit: a check that asks for one (the opening hours of the help widget's
first test) fails, so a new user sees both verdicts."""

from __future__ import annotations

from pathlib import Path

LOCAL_TARGETS = """\
# Written by `manage.py local_setup` for `make run` (docs/runs.md, "Targets").
targets:
  - name: mock
    provider: mock
    response: >-
      Thanks for asking. Here is what to do, step by step, and what to check first; tell me if
      anything is unclear and I will explain it another way.
    grader_target: mock-judge
  - name: mock-judge
    provider: mock
    response: >-
      {"score": 1, "assertions": [{"text": "Meets the expected outcome", "passed": true}],
      "checks": [{"id": "rubric-1", "satisfied": true, "reasoning": "Meets it."}],
      "overall_reasoning": "The answer meets the criteria."}
"""


def write_local_targets(path: Path) -> bool:
    """Write the local targets file at `path` unless one is there (an operator's edits stay);
    whether it was written."""
    if path.exists():
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(LOCAL_TARGETS, encoding="utf-8")
    return True

"""The prompt files a 2025 composite's members name are imported with the suite, so the
upgraded assert-set's members find them (docs/formats.md, "Upgrading to today's format")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import factories

pytestmark = pytest.mark.django_db

OLDER_FILE = """\
evalcases:
  - id: gate
    input_messages: [{role: user, content: Explain it.}]
    outcome: Clear and safe.
    execution:
      evaluators:
        - name: gate
          type: composite
          evaluators:
            - {name: safety, type: llm_judge, prompt: ./prompts/safety.md}
            - name: inner
              type: composite
              evaluators: [{name: clarity, type: llm_judge, prompt: ./prompts/clarity.md}]
"""


def test_members_prompt_files_are_stored_with_the_suite(tmp_path: Path) -> None:
    (tmp_path / "evals" / "prompts").mkdir(parents=True)
    (tmp_path / "evals" / "gate.yaml").write_text(OLDER_FILE)
    for name in ("safety", "clarity"):
        (tmp_path / "evals" / "prompts" / f"{name}.md").write_text(f"{name}: {{{{output}}}}")
    (tmp_path / "evals" / "prompts" / "unused.md").write_text("not read")

    workspace = factories.imported_workspace(tmp_path, "Gates")

    assert sorted(workspace.files.values_list("path", flat=True)) == [
        "evals/prompts/clarity.md",
        "evals/prompts/safety.md",
    ]

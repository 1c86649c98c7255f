"""An import keeps every file a suite references, scripts included, so that a run finds them in
the stored files (docs/runs.md, "The run folder")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.factories import imported_workspace, write_files

pytestmark = pytest.mark.django_db

SUITE = """\
workspace: ./setup/workspace.yaml
tests:
  - id: graded
    input: What is 2 + 2?
    expected_output:
      - role: assistant
        content:
          - type: file
            value: ../snippets/answer.md
    assertions:
      - type: code-grader
        command: [python3, check.py, --keyword, four]
        cwd: ../scripts
      - type: composite
        aggregator:
          type: code-grader
          path: node ../scripts/aggregate.js
        assertions:
          - name: member
            type: contains
            value: four
"""


def test_an_import_keeps_scripts_expected_output_and_workspace_files(tmp_path: Path) -> None:
    files = {
        "evals/math.eval.yaml": SUITE,
        "evals/setup/workspace.yaml": "template: ../../template\n",
        "snippets/answer.md": "Four.\n",
        "scripts/check.py": "print('{}')\n",
        "scripts/aggregate.js": "console.log('{}')\n",
        "scripts/unused.py": "print('not referenced')\n",
    }
    workspace = imported_workspace(write_files(tmp_path, files))
    assert sorted(workspace.file_texts()) == [
        "evals/setup/workspace.yaml",
        "scripts/aggregate.js",
        "scripts/check.py",
        "snippets/answer.md",
    ]


def test_the_examples_keep_their_graders_script(tmp_path: Path) -> None:
    examples = Path(__file__).resolve().parents[2] / "examples"
    workspace = imported_workspace(examples)
    assert "scripts/check_keywords.py" in workspace.file_texts()

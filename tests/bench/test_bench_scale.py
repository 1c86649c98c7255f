"""The scale figures' check that a publish changed only the edited case's lines: it must see
a line changed anywhere else, or the figure would pass whatever the publish rewrote."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bench.measure_scale import lines_outside_case

SUITE = """\
evalcases:
  - id: first
    outcome: One.
  - id: second
    outcome: Two.
  - id: third
    outcome: Three.
"""


def commit(root: Path, text: str, other: str | None = None) -> str:
    (root / "suite.yaml").write_text(text, encoding="utf-8")
    if other is not None:
        (root / "other.yaml").write_text(other, encoding="utf-8")
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@localhost"]
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "change"], check=True)
    return subprocess.run(
        [*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "-b", "main", str(tmp_path)], check=True)
    commit(tmp_path, SUITE, "kept: true\n")
    return tmp_path


@pytest.mark.parametrize(
    ("text", "other", "outside"),
    [
        (SUITE.replace("Two.", "Two, edited.\n    note: added"), None, 0),
        (SUITE.replace("    outcome: Two.\n", ""), None, 0),
        (SUITE.replace("One.", "One, edited.").replace("Two.", "Two, edited."), None, 1),
        (SUITE.replace("Three.", "Three, edited."), None, 1),
        (SUITE.replace("Two.", "Two, edited."), "kept: false\n", 2),
    ],
    ids=[
        "lines-added-in-the-case",
        "a-line-deleted-in-the-case",
        "the-case-before-too",
        "another-case-only",
        "another-file-too",
    ],
)
def test_lines_changed_outside_the_case_are_counted(
    repository: Path, text: str, other: str | None, outside: int
) -> None:
    changed = commit(repository, text, other)

    assert lines_outside_case(repository, changed, ("suite.yaml", "second")) == outside

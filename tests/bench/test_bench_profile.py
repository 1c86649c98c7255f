"""`python -m bench.profile` profiles what it is asked to, through Django's whole stack."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPOSITORY


def test_profiling_the_preview_shows_the_preview_view_in_the_tree() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bench.profile", "preview", "--cases", "20", "--requests", "3"],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )

    assert result.returncode == 0, result.stderr
    assert "case_preview" in result.stdout

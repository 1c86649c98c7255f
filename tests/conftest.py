"""Fixtures shared by every test layer."""

from __future__ import annotations

from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parent.parent
EXAMPLES = REPOSITORY / "examples"


@pytest.fixture
def example_root() -> Path:
    """The example workspace shipped in the repository."""
    return EXAMPLES

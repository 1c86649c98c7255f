"""One adapter per generation of the AgentV CLI, chosen by the version the app detects, as a
suite's profile object is chosen by its format (docs/runs.md, "AgentV generations")."""

from __future__ import annotations

from ..agentv_cli import version_tuple
from .agentv4 import Agentv4
from .agentv5 import Agentv5
from .base import Generation

__all__ = ["Agentv4", "Agentv5", "Generation", "generation_of"]


def generation_of(version: str) -> Generation:
    """The adapter of AgentV `version`: 5.x and later call it with providers, 4.x with
    targets (the app refuses anything older, `agentv_cli.MINIMUM_VERSION`)."""
    numbers = version_tuple(version) or (0, 0, 0)
    return Agentv5(version) if numbers >= (5, 0, 0) else Agentv4(version)

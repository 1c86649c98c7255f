"""`manage.py check` says when runs are on but AgentV cannot run them (docs/runs.md). Every
suite's format runs, in a spelling the configured AgentV reads (`spellings.py`)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Warning, register

from .agentv_cli import agentv_status


@register()
def agentv_is_usable(app_configs: Any, **kwargs: Any) -> list[Warning]:
    """A warning when AGENTV_RUNS_ENABLED is on and AgentV is missing or too old."""
    if not settings.AGENTV_RUNS_ENABLED:
        return []
    status = agentv_status()
    if status.usable:
        return []
    return [
        Warning(
            status.problem,
            hint="Runs are refused until it is fixed (docs/runs.md).",
            id="evals_app.W001",
        )
    ]

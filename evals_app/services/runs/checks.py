"""`manage.py check` says when runs are on but AgentV cannot run them, or cannot run some
suites' format (docs/runs.md)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register
from django.db import connections

from ...models import Suite
from .agentv_cli import agentv_status
from .formats import eval_format_of, format_problem

NAMED_SUITES = 10  # a warning names this many suites, then says how many more


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


@register(Tags.database)
def agentv_reads_every_suite(
    app_configs: Any, databases: Sequence[str] | None = None, **kwargs: Any
) -> list[Warning]:
    """A warning per format the configured AgentV cannot run, naming the suites in it
    (`manage.py check --database default`)."""
    if not databases or not settings.AGENTV_RUNS_ENABLED:
        return []
    status = agentv_status()
    if not status.usable:  # evals_app.W001 says why
        return []
    suites_by_problem: dict[str, list[str]] = defaultdict(list)
    for database in databases:
        # `manage.py migrate` runs this check too, maybe before the suites' table exists.
        if Suite._meta.db_table not in connections[database].introspection.table_names():
            continue
        suites = (
            Suite.objects.using(database)
            .only("workspace__slug", "path", "cases_key", "document")
            .select_related("workspace")
            .order_by("workspace__slug", "path")
        )
        for suite in suites.iterator():
            problem = format_problem(status.version, eval_format_of(suite))
            if problem:
                suites_by_problem[problem].append(f"{suite.workspace.slug} / {suite.path}")
    return [
        Warning(
            f"{problem} Suites: {_named(names)}.",
            hint="Runs of these suites are refused until it is fixed (docs/runs.md).",
            id="evals_app.W002",
        )
        for problem, names in suites_by_problem.items()
    ]


def _named(names: list[str]) -> str:
    more = len(names) - NAMED_SUITES
    return ", ".join(names[:NAMED_SUITES]) + (f" and {more} more" if more > 0 else "")

"""The evals app: workspaces, suites, cases and the formatting preview."""

from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db import connections
from django.db.models.signals import post_migrate


class EvalsAppConfig(AppConfig):
    """App configuration."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "evals_app"
    verbose_name = "AgentV evals"

    def ready(self) -> None:
        post_migrate.connect(_repair_search_index, sender=self)
        from .services.runs import checks  # noqa: F401  (registers the AgentV check)


def _repair_search_index(using: str, **kwargs: Any) -> None:
    """Put back what a migration that rebuilt the case table dropped from the search index
    (SQLite drops a table's triggers with it), and refresh the query planner's statistics
    (services/cases/search_index.py)."""
    from .services.cases.search_index import repair_search_index, update_planner_statistics

    repair_search_index(connections[using])
    update_planner_statistics(connections[using])

"""The evals app: workspaces, suites, cases and the formatting preview."""

from __future__ import annotations

from django.apps import AppConfig


class EvalsAppConfig(AppConfig):
    """App configuration."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "evals_app"
    verbose_name = "AgentV evals"

    def ready(self) -> None:
        from .services.runs import checks  # noqa: F401  (registers the AgentV check)

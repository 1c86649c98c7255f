"""The benchmark's own world: a scratch folder with its SQLite database, static files and user.

Nothing of the developer's (data/, the local login) is read or written. Settings are the
production ones (DJANGO_DEBUG off), relaxed only for plain HTTP on loopback.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
USERNAME = "bench"


@dataclass(frozen=True)
class Environment:
    """Where the benchmark keeps its data, how to log in, and the variables for subprocesses."""

    folder: Path
    password: str
    variables: dict[str, str]

    def subprocess_env(self) -> dict[str, str]:
        """The environment for gunicorn and the memory runs: this process's, plus ours."""
        return {**os.environ, **self.variables}


def prepare(
    folder: Path, settings: str = "agentv_web.settings", database_url: str | None = None
) -> Environment:
    """Point Django at a new database in `folder`, migrate it, collect static files, add a user.

    `settings` is the settings module (another one can try a configuration change);
    `database_url` an empty database to use instead (PostgreSQL). Must run before anything
    imports Django models (it calls `django.setup()`).
    """
    variables = {
        "DJANGO_SETTINGS_MODULE": settings,
        "DATABASE_URL": database_url or f"sqlite:///{folder / 'bench.sqlite3'}",
        "AGENTV_DATA_DIR": str(folder / "data"),
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(40),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "DJANGO_STATIC_ROOT": str(folder / "static"),
        # Plain HTTP on loopback: no redirect to HTTPS, cookies sent without TLS.
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_SECURE_COOKIES": "false",
        "DJANGO_SECURE_HSTS_SECONDS": "0",
        # As the README's deployment has it: connections kept between requests.
        "DATABASE_CONN_MAX_AGE": "60",
    }
    os.environ.update(variables)
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    password = secrets.token_urlsafe(16)
    # An ordinary account, not a superuser: it owns the workspaces it works in (`join`).
    User.objects.create_user(USERNAME, password=password)
    return Environment(folder, password, variables)


def join(workspace_name: str) -> None:
    """Make the benchmark's account the owner of the workspace `workspace_name`."""
    from evals_app.models import Membership, Workspace
    from evals_app.services.workspaces.memberships import add_member

    add_member(Workspace.objects.get(name=workspace_name), USERNAME, Membership.Role.OWNER)

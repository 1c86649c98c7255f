"""`manage.py local_setup`: what `make run` needs on a fresh machine, idempotently.

Imports the example workspace when it is not there yet, writes the local targets file (a mock
and its mock judge) and creates a local account, then prints the login. The password is
generated once and kept in the data folder, readable by its owner only.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from evals_app.models import Workspace
from evals_app.services.imports.folders import ImportFailed, import_workspace
from evals_app.services.runs.local_targets import write_local_targets

EXAMPLE_WORKSPACE = "Example workspace"
USERNAME = "admin"
DEFAULT_ADDRESS = "127.0.0.1:8000"
# The targets `make run` gives runs (AGENTV_TARGETS_FILE), in the data folder.
LOCAL_TARGETS_FILE = "local-targets.yaml"


class Command(BaseCommand):
    help = "Load the example workspace and create a local account (for `make run`)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--address",
            default=DEFAULT_ADDRESS,
            help="host:port the server will listen on, printed in the login URL "
            f"(`make run PORT=...` passes it; default {DEFAULT_ADDRESS})",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        address = options["address"]
        host, _, port = address.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise CommandError(f"--address {address!r} is not host:port, e.g. {DEFAULT_ADDRESS}.")
        if not Workspace.objects.filter(name=EXAMPLE_WORKSPACE).exists():
            try:
                summary = import_workspace(settings.BASE_DIR / "examples", EXAMPLE_WORKSPACE)
            except ImportFailed as failure:
                raise CommandError(str(failure)) from None
            self.stdout.write(f"Loaded {EXAMPLE_WORKSPACE!r}: {summary.cases} cases.")
        targets = Path(settings.DATA_DIR) / LOCAL_TARGETS_FILE
        if write_local_targets(targets):
            self.stdout.write(f"Wrote {targets}: the mock target and its mock judge.")
        password = self._local_password(Path(settings.DATA_DIR) / "local-login.txt")
        self.stdout.write(
            self.style.SUCCESS(
                f"Log in at http://{address}/ as {USERNAME!r} with password {password!r}"
            )
        )

    def _local_password(self, secret_file: Path) -> str:
        user_model = get_user_model()
        user = user_model.objects.filter(username=USERNAME).first()
        if user is not None and secret_file.exists():
            return secret_file.read_text().strip()
        password = secrets.token_urlsafe(12)
        if user is None:
            user = user_model.objects.create_superuser(USERNAME, email="", password=password)
        else:
            user.set_password(password)
            user.save(update_fields=["password"])
        secret_file.parent.mkdir(parents=True, exist_ok=True)
        secret_file.write_text(password + "\n")
        secret_file.chmod(0o600)
        return password

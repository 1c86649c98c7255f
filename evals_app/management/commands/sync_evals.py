"""`manage.py sync_evals --workspace NAME [--ref REF] [--dry-run]` (docs/sync.md)."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from evals_app.models import Workspace
from evals_app.services.imports.folders import ImportFailed
from evals_app.services.repository.credentials import CredentialError
from evals_app.services.repository.git import GitError
from evals_app.services.repository.remotes import fetch_and_sync
from evals_app.services.repository.sync import NotLinked


class Command(BaseCommand):
    help = (
        "Bring a linked workspace up to date with its git repository at REF (default: the "
        "linked branch) by the three-way rule; prints one line per outcome and per conflict."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--workspace", required=True, metavar="NAME")
        parser.add_argument("--ref", metavar="REF", help="a branch, tag or commit to read")
        parser.add_argument(
            "--dry-run", action="store_true", help="report the outcomes, change nothing"
        )

    def handle(
        self, *args: Any, workspace: str, ref: str | None, dry_run: bool, **options: Any
    ) -> None:
        found = Workspace.objects.filter(name=workspace).first()
        if found is None:
            raise CommandError(f"no workspace named {workspace!r}")
        try:
            commit, report = fetch_and_sync(found, ref, dry_run=dry_run)
        except ImportFailed as failure:
            for error in failure.errors:
                self.stderr.write(f"error: {error}")
            raise CommandError("sync refused; nothing was changed") from None
        except (GitError, NotLinked, CredentialError) as error:
            raise CommandError(str(error)) from None
        for line in report.lines():
            self.stdout.write(line)
        if dry_run:
            self.stdout.write(f"Dry run at {commit}: nothing was changed")
        else:
            self.stdout.write(self.style.SUCCESS(f"Synced {found.name!r} with {commit}"))

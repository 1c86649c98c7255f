"""`manage.py import_evals PATH [--workspace NAME]` (command-line contract: docs/formats.md)."""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from evals_app.services.cases.search_index import update_planner_statistics
from evals_app.services.imports.folders import ImportFailed, import_workspace


class Command(BaseCommand):
    help = (
        "Import an AgentV workspace folder (or one eval file) into the database. "
        "All or nothing: on any error nothing is written and the exit status is 1."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("path", type=Path, help="a workspace folder or a single eval file")
        parser.add_argument(
            "--workspace", metavar="NAME", help="workspace name (default: the folder's name)"
        )
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="into an existing workspace: report what the files would change, change nothing",
        )

    def handle(
        self, *args: Any, path: Path, workspace: str | None, dry_run: bool, **options: Any
    ) -> None:
        path = Path(path)  # a string from call_command's keyword arguments, which skip `type`
        try:
            summary = import_workspace(path, workspace, dry_run=dry_run, link=True)
        except ImportFailed as failure:
            for error in failure.errors:
                self.stderr.write(f"error: {error}")
            noun = "error" if len(failure.errors) == 1 else "errors"
            raise CommandError(
                f"import refused ({len(failure.errors)} {noun}); nothing was written"
            ) from None
        if not dry_run:
            update_planner_statistics(connection)
        for warning in summary.warnings:
            self.stdout.write(f"warning: {warning}")
        for skipped, reason in summary.skipped:
            self.stdout.write(f"skipped: {skipped}: {reason}")
        if summary.sync is not None:
            # Into an existing workspace: what the three-way rule did (docs/sync.md).
            for line in summary.sync.lines():
                self.stdout.write(line)
            verb = "Checked" if dry_run else "Synced"
            self.stdout.write(
                self.style.SUCCESS(f"{verb} workspace {summary.workspace.name!r} with the files")
            )
            return
        if dry_run:
            self.stdout.write(f"Workspace {summary.workspace.name!r} would be created")
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported workspace {summary.workspace.name!r}: {summary.suites} suites, "
                f"{summary.cases} cases, {summary.files} files, {len(summary.warnings)} warnings, "
                f"{len(summary.skipped)} YAML files skipped"
            )
        )

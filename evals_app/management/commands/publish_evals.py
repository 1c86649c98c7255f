"""`manage.py publish_evals --workspace NAME --branch BRANCH [--approved-only] [--skip-conflicts]
[--message TEXT]` (docs/sync.md, "Publishing")."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from evals_app.models import Workspace
from evals_app.services.repository.credentials import CredentialError
from evals_app.services.repository.git import GitError
from evals_app.services.repository.publishing import PublishRefused
from evals_app.services.repository.remotes import publish_and_push
from evals_app.services.repository.sync import NotLinked


class Command(BaseCommand):
    help = (
        "Write a linked workspace's suites and files as one commit on BRANCH (made from the "
        "base when missing), without touching the work tree, the index or the checked-out "
        "branch; prints the new commit's id."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--workspace", required=True, metavar="NAME")
        parser.add_argument("--branch", required=True, metavar="BRANCH")
        parser.add_argument(
            "--approved-only",
            action="store_true",
            help="cases that are not approved keep the repository's version",
        )
        parser.add_argument(
            "--skip-conflicts",
            action="store_true",
            help="publish the other cases: a case in conflict keeps the repository's version",
        )
        parser.add_argument("--message", default="", metavar="TEXT", help="the commit's title")

    def handle(
        self,
        *args: Any,
        workspace: str,
        branch: str,
        approved_only: bool,
        skip_conflicts: bool,
        message: str,
        **options: Any,
    ) -> None:
        found = Workspace.objects.filter(name=workspace).first()
        if found is None:
            raise CommandError(f"no workspace named {workspace!r}")
        try:
            published = publish_and_push(
                found,
                branch,
                approved_only=approved_only,
                skip_conflicts=skip_conflicts,
                message=message,
            )
        except (PublishRefused, GitError, NotLinked, CredentialError) as error:
            raise CommandError(str(error)) from None
        result = published.result
        first, *rest = result.lines()
        if result.commit is None:
            self.stdout.write(first)
            return
        # Standard output is the commit's id alone, for scripts; what it did goes to stderr.
        self.stdout.write(result.commit)
        for line in [first, *rest]:
            self.stderr.write(line)

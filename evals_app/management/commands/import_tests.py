"""`manage.py import_tests PATH… --workspace NAME [--from FORMAT] [--suite PATH] [--turn N]`:
tests of other tools into a workspace (docs/imports.md, "Command line")."""

from __future__ import annotations

from argparse import ArgumentParser
from collections import defaultdict
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from evals_app.models import Workspace
from evals_app.other_tools.registry import FORMAT_NAMES, SESSION_FORMATS
from evals_app.services.imports.tests_from_tools import (
    DEFAULT_SUITE,
    TestsImportRefused,
    files_from_paths,
    import_tests,
)
from evals_app.services.workspaces.lifecycle import (
    WorkspaceNameError,
    clean_workspace_name,
    unique_slug,
)


class Command(BaseCommand):
    help = (
        "Import the tests of other tools (promptfoo, OpenAI Evals, chat datasets, LangSmith, "
        "Langfuse, Braintrust, Inspect, DeepEval, Claude Code and Codex sessions) as AgentV "
        "tests. All or nothing: on any error nothing is written and the exit status is 1."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("paths", nargs="+", type=Path, help="files or folders to import")
        parser.add_argument("--workspace", metavar="NAME", required=True, help="made if needed")
        parser.add_argument(
            "--from",
            dest="source",
            metavar="FORMAT",
            choices=FORMAT_NAMES,
            help=f"the files' format (default: detected): {', '.join(FORMAT_NAMES)}",
        )
        parser.add_argument(
            "--suite",
            metavar="PATH",
            default=DEFAULT_SUITE,
            help=f"the suite file to write or add to (default: {DEFAULT_SUITE})",
        )
        parser.add_argument(
            "--turn",
            metavar="N",
            type=int,
            action="append",
            default=[],
            help="sessions: the user turn to test at, counted from 1 (repeatable; default: "
            "the last one the session answered)",
        )

    def handle(
        self,
        *args: Any,
        paths: list[Path],
        workspace: str,
        source: str | None,
        suite: str,
        turn: list[int],
        **options: Any,
    ) -> None:
        try:
            files = files_from_paths(paths)
            turns = dict.fromkeys(files, turn) if turn else None
            with transaction.atomic():
                target, made = _workspace(workspace)
                imported = import_tests(target, files, suite, forced=source, turns=turns)
        except TestsImportRefused as refusal:
            self.stderr.write(f"error: {refusal.message}")
            raise CommandError("import refused; nothing was written") from None
        conversion = imported.conversion
        warnings = defaultdict(list)
        for warning in conversion.all_warnings:
            warnings[warning.file].append(warning)
        for result in conversion.files:
            turns_note = ""
            if result.format in SESSION_FORMATS:
                turns_note = (
                    f" (turn {', '.join(map(str, result.chosen_turns))} of {len(result.turns)})"
                )
            self.stdout.write(
                f"{result.path}: {result.format}: {len(result.tests)} "
                f"test{'s' * (len(result.tests) != 1)}{turns_note}"
            )
        for file, found in warnings.items():
            for warning in found:
                self.stdout.write(f"warning: {warning}")
            del file
        for path, reason in conversion.skipped:
            self.stdout.write(f"skipped: {path}: {reason}")
        verb = "Created" if imported.created else "Added to"
        where = f"{verb} {imported.suite.path} in workspace {target.name!r}"
        if made:
            where += " (a new workspace)"
        count = len(conversion.tests)
        self.stdout.write(self.style.SUCCESS(f"{where}: {count} test{'s' * (count != 1)}"))


def _workspace(name: str) -> tuple[Workspace, bool]:
    """The workspace named `name`, made (with no members, as `import_evals` makes one) when
    there is none."""
    existing = Workspace.objects.filter(name=name).first()
    if existing is not None:
        return existing, False
    try:
        cleaned = clean_workspace_name(name)
    except WorkspaceNameError as error:
        raise TestsImportRefused(error.message) from None
    return Workspace.objects.create(name=cleaned, slug=unique_slug(cleaned)), True

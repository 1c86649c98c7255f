"""`manage.py export_evals --out DIR ...` (the command-line contract: docs/user-guide.md,
"Command line")."""

from __future__ import annotations

import sys
from argparse import ArgumentParser, ArgumentTypeError
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from evals_app.eval_files.export_formats import EXPORT_FORMATS
from evals_app.formatting.profile_2025.formatter import MODES, Mode
from evals_app.models import Case, ReviewStatus, Workspace
from evals_app.services.exports.batches import MAX_JOBS
from evals_app.services.exports.exporting import export_workspace
from evals_app.services.exports.other_formats import ExportRefused, export_workspace_as
from evals_app.services.review.review_export import write_reviews
from evals_app.services.suites.lint_report import lint_workspace


class Command(BaseCommand):
    help = (
        "Export workspaces as AgentV YAML, their files and config, plus formatted.jsonl: "
        "the formatted question, guidelines, chat prompt and judge prompt of every case."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--out", type=Path, metavar="DIR")
        parser.add_argument(
            "--reviews",
            type=Path,
            metavar="FILE",
            help="also (or only) write every review of the cases to FILE, as JSON lines",
        )
        parser.add_argument(
            "--workspace",
            action="append",
            metavar="NAME",
            help="export this workspace (repeatable; default: all)",
        )
        parser.add_argument(
            "--as",
            dest="as_format",
            choices=["agentv", *EXPORT_FORMATS],
            default="agentv",
            help="agentv (default): eval files, their files and formatted.jsonl; promptfoo: a "
            "promptfoo config per suite; chat-jsonl: a chat JSONL file per suite "
            "(docs/exports.md)",
        )
        parser.add_argument("--mode", choices=[*MODES, "both"], default="both")
        parser.add_argument(
            "--check",
            action="store_true",
            help="also lint every case; exit with status 1 if any case has a formatting warning "
            "or a lint finding of severity error or warning",
        )
        parser.add_argument(
            "--toon", action="store_true", help="add question_toon (the turns in TOON) to each line"
        )
        parser.add_argument(
            "--tokens",
            action="store_true",
            help="add tokens (each text's token count, in the workspace's encoding) to each line",
        )
        parser.add_argument(
            "--approved-only",
            action="store_true",
            help="export only the cases whose review is approved",
        )
        parser.add_argument(
            "--jobs",
            type=_positive,
            metavar="N",
            help="worker processes that format a large workspace "
            f"(default: one per core, at most {MAX_JOBS}; 1: none)",
        )

    def handle(
        self,
        *args: Any,
        out: Path | str | None,
        reviews: Path | str | None,
        as_format: str = "agentv",
        workspace: list[str] | None,
        mode: str,
        check: bool,
        toon: bool,
        tokens: bool,
        approved_only: bool,
        jobs: int | None,
        **options: Any,
    ) -> None:
        # argparse's `type=Path` applies to the command line, not to call_command's keyword
        # arguments: `call_command("export_evals", out="exports")` passes a string.
        out = Path(out) if out is not None else None
        reviews = Path(reviews) if reviews is not None else None
        workspaces = list(Workspace.objects.order_by("name"))
        if workspace:
            by_name = {item.name: item for item in workspaces}
            unknown = [name for name in workspace if name not in by_name]
            if unknown:
                raise CommandError(f"no workspace named {', '.join(map(repr, unknown))}")
            workspaces = [by_name[name] for name in dict.fromkeys(workspace)]
        if not workspaces:
            raise CommandError("there is no workspace to export (import one with import_evals)")
        if out is None and reviews is None:
            raise CommandError("give --out DIR, --reviews FILE, or both")
        if reviews is not None:
            try:
                written = write_reviews(workspaces, reviews)
            except OSError as error:
                raise CommandError(f"cannot write {reviews}: {error.strerror}") from error
            self.stdout.write(self.style.SUCCESS(f"Wrote {written} reviews to {reviews}"))
        if out is None:
            return
        if as_format != "agentv":
            self._export_as(workspaces, out, as_format, approved_only=approved_only, check=check)
            return
        modes: tuple[Mode, ...] = MODES if mode == "both" else (mode,)  # type: ignore[assignment]
        cases = Case.objects.filter(suite__workspace__in=workspaces)
        if approved_only:
            cases = cases.filter(status=ReviewStatus.APPROVED)
        total = cases.count()
        warnings = 0
        with tqdm(
            total=total, unit="case", file=sys.stderr, disable=not sys.stderr.isatty()
        ) as progress:
            for item in workspaces:
                summary = export_workspace(
                    item,
                    out,
                    modes=modes,
                    toon=toon,
                    tokens=tokens,
                    approved_only=approved_only,
                    jobs=jobs,
                    on_case=progress.update,
                )
                for warning in summary.warnings:
                    self.stdout.write(f"warning: {warning}")
                warnings += len(summary.warnings)
                if approved_only and summary.cases == 0:
                    self.stdout.write(
                        self.style.WARNING(
                            f"Note: no case of workspace {item.name!r} is approved: "
                            "its suites are exported empty."
                        )
                    )
                self.stdout.write(
                    self.style.SUCCESS(
                        f"Exported workspace {item.name!r} to {summary.folder}: "
                        f"{summary.suites} suites, {summary.cases} cases, {summary.files} files, "
                        f"{summary.formatted_lines} lines in formatted.jsonl, "
                        f"{len(summary.warnings)} warnings"
                    )
                )
        if not check:
            return
        failing = 0
        for item in workspaces:
            for found in lint_workspace(item):
                self.stdout.write(f"lint: {found}")
                failing += found.finding.severity != "info"
        if warnings or failing:
            raise CommandError(
                f"--check: {warnings} formatting warnings, {failing} lint findings "
                "(errors and warnings)"
            )

    def _export_as(
        self,
        workspaces: list[Workspace],
        out: Path,
        as_format: str,
        *,
        approved_only: bool,
        check: bool,
    ) -> None:
        """Each suite in another tool's format, one file per suite (docs/exports.md)."""
        warnings = 0
        for item in workspaces:
            try:
                summary = export_workspace_as(item, out, as_format, approved_only=approved_only)
            except ExportRefused as refusal:
                raise CommandError(f"workspace {item.name!r}: {refusal}") from refusal
            for warning in summary.warnings:
                self.stdout.write(f"warning: {warning}")
            warnings += len(summary.warnings)
            self.stdout.write(
                self.style.SUCCESS(
                    f"Exported workspace {item.name!r} as {as_format} to {summary.folder}: "
                    f"{summary.suites} suites, {summary.tests} tests, "
                    f"{len(summary.warnings)} warnings"
                )
            )
        if check and warnings:
            raise CommandError(f"--check: {warnings} export warnings")


def _positive(text: str) -> int:
    """A whole number of at least 1, or argparse's error naming the option."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return value

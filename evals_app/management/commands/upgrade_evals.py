"""`manage.py upgrade_evals --workspace NAME [--suite PATH ...] [--dry-run]` (docs/user-guide.md,
"Upgrading to today's format")."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from evals_app.models import Workspace
from evals_app.services.suites.upgrade import (
    UpgradeError,
    UpgradePlan,
    older_suites,
    plan_upgrade,
    upgrade_suites,
)


class Command(BaseCommand):
    help = (
        "Rewrite a workspace's older eval files in today's AgentV format, each changed case as "
        "a new revision; with --dry-run, only say what would change."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--workspace", required=True, metavar="NAME")
        parser.add_argument(
            "--suite",
            action="append",
            metavar="PATH",
            help="upgrade this suite (repeatable; default: every older suite)",
        )
        parser.add_argument("--dry-run", action="store_true", help="change nothing")

    def handle(
        self,
        *args: Any,
        workspace: str,
        suite: list[str] | None,
        dry_run: bool,
        **options: Any,
    ) -> None:
        found = Workspace.objects.filter(name=workspace).first()
        if found is None:
            raise CommandError(f"no workspace named {workspace!r}")
        if suite:
            by_path = {item.path: item for item in found.suites.filter(path__in=suite)}
            unknown = [path for path in suite if path not in by_path]
            if unknown:
                raise CommandError(f"no suite {', '.join(map(repr, unknown))} in {workspace!r}")
            suites = [by_path[path] for path in dict.fromkeys(suite)]
        else:
            suites = older_suites(found)
        if not suites:
            self.stdout.write(f"Every suite of {workspace!r} is in today's format already.")
            return
        try:
            if dry_run:
                plan = plan_upgrade(found, suites)
            else:
                plan = upgrade_suites(found, suites, actor=None, formatted=True)
        except UpgradeError as error:
            raise CommandError(str(error)) from None
        self._report(plan)
        changed = sum(len(item.changed_cases) for item in plan.suites)
        verb = "Would upgrade" if dry_run else "Upgraded"
        self.stdout.write(
            self.style.SUCCESS(
                f"{verb} {len(plan.suites)} suite{'s' * (len(plan.suites) != 1)} of "
                f"{workspace!r}: {changed} case{'s' * (changed != 1)} changed, "
                f"{len(plan.templates)} judge template{'s' * (len(plan.templates) != 1)}."
            )
        )
        if dry_run:
            self.stdout.write("Dry run: nothing was changed.")

    def _report(self, plan: UpgradePlan) -> None:
        for item in plan.suites:
            self.stdout.write(f"{item.suite.path}")
            for change in item.changes:
                self.stdout.write(f"  {change}")
            for note in item.notes:
                self.stdout.write(self.style.WARNING(f"  note: {note}"))
            for case in item.cases:
                for skip in case.skips:
                    self.stdout.write(
                        self.style.WARNING(
                            f"  {case.case.case_id}: AgentV will skip this test: {skip}"
                        )
                    )
                if not case.changed:
                    continue
                self.stdout.write(f"  {case.case.case_id}: {'; '.join(case.changes)}")
                if case.guidelines_inline:
                    self.stdout.write(
                        self.style.WARNING(
                            "    note: its guideline files now reach the model inline"
                        )
                    )
                for note in case.notes:
                    self.stdout.write(self.style.WARNING(f"    note: {note}"))
        for template in plan.templates:
            where = f"copied to {template.path}" if template.copied else "changed in place"
            self.stdout.write(f"judge template {template.source}: {where}")
